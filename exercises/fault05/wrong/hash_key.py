def process_order(api, order_id, amount):
    # "Stable and short": a hash of the order's name. Each Ray worker is a fresh interpreter with
    # its own hash salt, so the retry, in another worker, hashes the same text to another key.
    key = str(hash(f"order-{order_id}"))
    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))
