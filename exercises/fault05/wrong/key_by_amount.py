def process_order(api, order_id, amount):
    charge_id = api.charge(order_id, amount, idempotency_key=f"amount-{amount}")
    api.mark_paid(order_id, charge_id)
