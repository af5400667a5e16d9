# class: sleeping and blocking
# exercise: fault05
# Sleep at import: no CPU is used, so a CPU limit never fires.
import time

time.sleep(10**6)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
