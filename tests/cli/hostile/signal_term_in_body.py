# class: signals from outside
# exercise: fault05
# Block inside a task body, outside the simulation, with a marked process beside it. When the
# grader is sent SIGTERM (`timeout`, a batch system) at that moment, the judge is running the
# task body in its simulation: a SIGTERM taken for the body's own sys.exit() lets grading go on
# and blames the submission. (tests/cli/test_hostile_judge.py sends it.)
import os
import select


def process_order(api, order_id, amount):
    os.posix_spawnp("sh", ["sh", "-c", "sleep 3600", "@@MARKER@@"], {})
    select.select([], [], [], 3600)
    api.mark_paid(order_id, api.charge(order_id, amount))
