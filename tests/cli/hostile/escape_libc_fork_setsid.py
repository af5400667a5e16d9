# class: escaping (processes that outlive the grade)
# exercise: fault05
# fork() through libc (past any Python-level block), setsid() into a session of its own, and run
# a long sleep that should outlive the grading.
import ctypes
import os

libc = ctypes.CDLL(None)
pid = libc.fork()
if pid == 0:
    libc.setsid()
    try:
        os.execvp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@"])
    finally:
        os._exit(0)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
