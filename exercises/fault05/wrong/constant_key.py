def process_order(api, order_id, amount):
    # "the same key every time": every order, too
    charge_id = api.charge(order_id, amount, idempotency_key="process-order")
    api.mark_paid(order_id, charge_id)
