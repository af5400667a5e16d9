# class: the judge's time and memory
# exercise: fault05
# A stand-in in the judge for every handle the jail names, and a module object for every module
# name: name millions of them, in messages just under the size limit.
import sys


def _send():
    channel = sys.modules["faultlines.sandbox.client"].link().channel
    for burst in range(40):
        handles = [
            ["S", 10**7 * burst + i, {"k": "obj", "type": "T", "repr": "x" * 200}] for i in range(60_000)
        ]
        modules = [["M", f"m{burst}_{i}"] for i in range(20_000)]
        channel.call("api", ["l", "put", ["l", ["l", *handles, *modules]], ["d"]])


def process_order(api, order_id, amount):
    try:
        _send()
    except Exception:
        pass
    api.mark_paid(order_id, api.charge(order_id, amount))
