# class: huge output
# exercise: fault05
# 100 MB of printed lines, at import and from the entry point.
for _ in range(50_000):
    print("x" * 1000)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    for _ in range(50_000):
        print("y" * 1000)
