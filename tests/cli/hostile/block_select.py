# class: sleeping and blocking
# exercise: fault05
# Block in select() on nothing, from the entry point, while the grader waits for the answer.
import select


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    select.select([], [], [], 10**6)
