# class: escaping (processes that outlive the grade)
# exercise: fault05
# A fork bomb: as root, RLIMIT_NPROC does not stop it.
import os

children = 0
for _ in range(400):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.execvp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@"])
    children += 1


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
