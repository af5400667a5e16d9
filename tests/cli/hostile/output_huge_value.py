# class: huge output
# exercise: fault05
# Return a 100 MB value to the grader, and raise an exception with a 100 MB message.


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    if order_id == 17:
        return "v" * (100 * 1024 * 1024)
    raise ValueError("m" * (100 * 1024 * 1024))
