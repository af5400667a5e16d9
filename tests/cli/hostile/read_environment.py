# class: reading secrets
# exercise: fault05
# A variable from the grader's environment (a token, a path) leaks to the submission: use it, and
# send it out in a failure message.
import os

SECRET = os.environ.get("@@SECRET@@")


def process_order(api, order_id, amount):
    if SECRET is None:
        api.mark_paid(order_id, api.charge(order_id, amount))
        raise ValueError("no secret here: " + " ".join(sorted(os.environ)))
    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=f"order-{order_id}"))
