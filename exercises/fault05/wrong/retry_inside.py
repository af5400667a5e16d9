def process_order(api, order_id, amount):
    # Retry the charge here, in case it fails: the crash it must survive is not an exception.
    for _ in range(3):
        try:
            charge_id = api.charge(order_id, amount)
            break
        except Exception:
            continue
    api.mark_paid(order_id, charge_id)
