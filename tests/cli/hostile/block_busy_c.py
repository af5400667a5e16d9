# class: sleeping and blocking
# exercise: fault05
# One C-level loop: a single statement, so the step budget cannot see it.


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    sum(range(10**13))
