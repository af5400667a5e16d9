# class: the judge's time and memory
# exercise: fault05
# Every object the jail describes gets a class of its type's name in the judge, cached for the
# process's life: send a million objects, each of a new type name, again and again.
import sys


def _send():
    channel = sys.modules["faultlines.sandbox.client"].link().channel
    for burst in range(20):
        objects = [["S", 10**6 * burst + i, {"k": "obj", "type": f"T{burst}_{i}"}] for i in range(50_000)]
        channel.call("api", ["l", "put", ["l", ["l", *objects]], ["d"]])


def process_order(api, order_id, amount):
    try:
        _send()
    except Exception:
        pass
    api.mark_paid(order_id, api.charge(order_id, amount))
