def process_order(api, order_id, amount):
    # The key names the order, not the attempt: every retry (and any second client) presents the
    # same key, so the gateway charges once and hands back that charge's id.
    charge_id = api.charge(order_id, amount, idempotency_key=f"order-{order_id}")
    api.mark_paid(order_id, charge_id)
