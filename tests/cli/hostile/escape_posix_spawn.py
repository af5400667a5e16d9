# class: escaping (processes that outlive the grade)
# exercise: fault05
# os.posix_spawnp(setsid=True): a process in its own session, started without fork().
import os

try:
    os.posix_spawnp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@"], {}, setsid=True)
except Exception:
    pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
