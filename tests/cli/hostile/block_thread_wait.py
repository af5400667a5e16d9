# class: sleeping and blocking
# exercise: fault05
# Wait forever on an event no one sets, from a task body.
import threading


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    threading.Event().wait()
