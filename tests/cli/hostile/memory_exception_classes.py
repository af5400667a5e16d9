# class: the judge's time and memory
# exercise: fault05
# The judge rebuilds a class for each exception name the jail sends, cached for the process's
# life (across a grade-all judge's students): raise exceptions of ever-new class names.
import sys


def _send():
    channel = sys.modules["faultlines.sandbox.client"].link().channel
    errors = [
        ["E", None, f"mod{i}", f"Error{i}", ["Exception"], ["l", "x"], ["d"], "x", "", None]
        for i in range(100_000)
    ]
    channel.call("api", ["l", "put", ["l", ["l", *errors]], ["d"]])


def process_order(api, order_id, amount):
    try:
        _send()
    except Exception:
        pass
    api.mark_paid(order_id, api.charge(order_id, amount))
