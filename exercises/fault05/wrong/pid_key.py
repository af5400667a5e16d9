import os


def process_order(api, order_id, amount):
    key = f"{order_id}@{os.getpid()}"  # "unique": the order, and the process charging it
    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))
