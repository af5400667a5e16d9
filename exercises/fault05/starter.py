def process_order(api, order_id, amount):
    """Charge the order once and mark it paid. Runs as a Ray task that Ray retries after a crash."""
    charge_id = api.charge(order_id, amount)
    api.mark_paid(order_id, charge_id)
