# Correct, written apart from the reference: keyword arguments throughout and a module-level
# prefix for the key; the key is the same on every attempt because it comes from the order alone.
PREFIX = "shop-42"


def process_order(api, order_id, amount):
    charge_id = api.charge(order_id=order_id, amount=amount, idempotency_key=f"{PREFIX}/{order_id}")
    api.mark_paid(order_id=order_id, charge_id=charge_id)
