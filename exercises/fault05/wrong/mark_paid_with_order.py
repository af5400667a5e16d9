def process_order(api, order_id, amount):
    api.charge(order_id, amount, idempotency_key=f"order-{order_id}")
    api.mark_paid(order_id, f"order-{order_id}")  # the key, not the charge id the gateway returned
