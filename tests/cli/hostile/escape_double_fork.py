# class: escaping (processes that outlive the grade)
# exercise: fault05
# A classic daemon: fork, setsid, fork again, and loop; the orphan is reparented away from the
# grader. It runs from inside the entry point, while the grading is under way.
import os


def _daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@"])
        os._exit(0)


def process_order(api, order_id, amount):
    _daemon()
    api.mark_paid(order_id, api.charge(order_id, amount))
