# Remember paid orders in a module-level set instead of an idempotency key: in one process the
# retry would find the order there; in Ray (and miniray) a retry on a new worker starts from the
# set as the driver exported it, empty.
CHARGED = {}


def process_order(api, order_id, amount):
    charge_id = CHARGED.get(order_id)
    if charge_id is None:
        charge_id = CHARGED[order_id] = api.charge(order_id, amount)
    api.mark_paid(order_id, charge_id)
