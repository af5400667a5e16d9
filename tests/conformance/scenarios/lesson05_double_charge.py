"""Lesson 5's story on both backends: a task charges a card and its worker dies after the charge
and before the return; Ray retries it (`max_retries` left at its default, 3).

The card processor is a file the body appends a charge to, so it outlives the worker as a real
payment API would. Observed: `ray.get` returns the second attempt's charge with no error, and
the processor holds two charges for the one order. Shown, not compared: what the driver is told
of the dead worker and the retry (real Ray's raylet prints it; miniray's event log records it).
"""

import os

from _observe import RunLog, is_miniray, outcome
from _said import DriverLog, driver_lines, miniray_log


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        processor = os.path.join(workdir, "charges.txt")
        open(processor, "w").close()
        attempts = RunLog(workdir, "attempts")

        @ray.remote  # max_retries=3 by default
        def settle_order(order, card, amount):
            attempt = attempts.bump()
            with open(processor, "a") as f:  # the charge: an effect outside the worker
                f.write(f"ch_{attempt} {order} {card} {amount}\n")
            if attempt == 1:
                os._exit(1)  # the worker dies after the charge, before the return
            return f"ch_{attempt}"

        with DriverLog() as log:
            result = outcome(ray, settle_order.remote("order-7", "card-4242", 30))
            if is_miniray(ray):
                said = miniray_log("task.start", "worker.died", "task.fail", "task.finish")
            else:
                driver_lines(ray, log, "retries remaining")  # waits for the retry's line to arrive
                said = "\n".join(log.lines("(raylet)"))
        with open(processor) as f:
            charges = [line.split()[0] for line in f if line.strip()]
        return {"result": result, "attempts": attempts.count(), "charges": charges, "_said_log": said}
    finally:
        ray.shutdown()
