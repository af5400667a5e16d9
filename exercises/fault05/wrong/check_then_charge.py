def process_order(api, order_id, amount):
    if api.paid_with(order_id) is not None:
        return
    charge_id = api.charge(order_id, amount)
    api.mark_paid(order_id, charge_id)
