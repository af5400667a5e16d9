# class: sleeping and blocking
# exercise: fault05
# Sleep a million seconds inside the task: in the simulation that is virtual time, so the run
# must end at its virtual-time bound, not after a million seconds.
import time


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    time.sleep(10**6)
