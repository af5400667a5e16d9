# Correct, written apart from the reference: a small class wraps the API and derives the key
# from everything that identifies this payment (the order and its amount).
class Checkout:
    def __init__(self, api):
        self.api = api

    def key_for(self, order_id, amount):
        return f"order={order_id};amount={amount}"

    def pay(self, order_id, amount):
        charge = self.api.charge(order_id, amount, idempotency_key=self.key_for(order_id, amount))
        self.api.mark_paid(order_id, charge)
        return charge


def process_order(api, order_id, amount):
    Checkout(api).pay(order_id, amount)
