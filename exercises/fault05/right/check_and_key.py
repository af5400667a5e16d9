# Correct, written apart from the reference: it looks first (an order already paid returns at
# once) and still passes a key naming the order, which is what makes the charge safe.
def process_order(api, order_id, amount):
    if api.paid_with(order_id) is not None:
        return
    key = "payment:" + str(order_id)
    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))
