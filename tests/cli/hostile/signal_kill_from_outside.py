# class: signals from outside
# exercise: fault05
# Sleep at import, a marked process beside it, until someone outside kills the jail's process
# with SIGKILL (an administrator, the machine's out-of-memory killer): that is not the CPU limit,
# and the row must not say "ran out of CPU time". (tests/cli/test_hostile_judge.py kills it.)
import os
import time

os.posix_spawnp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@-sh"], {})
time.sleep(3600)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
