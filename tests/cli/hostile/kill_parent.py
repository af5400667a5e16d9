# class: killing the parent
# exercise: fault05
# SIGKILL the parent (in grade-all that used to abort the whole class), then PID 1, then every
# process this user may signal.
import os
import signal

for target in (os.getppid(), 1):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError:
        pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
