# class: resource limits
# exercise: fault05
# Allocate 8 GB at import.
BIG = bytearray(8 * 1024**3)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
