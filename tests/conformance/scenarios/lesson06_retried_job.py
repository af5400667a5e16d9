"""Lesson 6's job on both backends: a task with `max_retries=-1` saves its progress to a file,
its worker is killed partway, and Ray starts it again; the new attempt reads the saved step and
carries on from there.

Observed and compared: two attempts, the second starting from the saved step, and the result.
Shown, not compared: what the driver is told of the kill and the retry (on Ray, the raylet's
lines, which say how many retries remain: "infinite" for -1; on miniray, its event log).
"""

import json
import os

from _observe import RunLog, is_miniray, outcome
from _said import DriverLog, driver_lines, miniray_log

STEPS, KILLED_AT = 6, 4


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        checkpoint = os.path.join(workdir, "job.ckpt")
        attempts = RunLog(workdir, "attempts")
        resumed = os.path.join(workdir, "resumed")

        @ray.remote(max_retries=-1)
        def job():
            attempt = attempts.bump()
            step = 0
            if os.path.exists(checkpoint):
                with open(checkpoint) as f:
                    step = json.load(f)["step"]
                with open(resumed, "a") as f:
                    f.write(f"{step}\n")
            while step < STEPS:
                step += 1
                with open(checkpoint, "w") as f:
                    json.dump({"step": step}, f)
                if attempt == 1 and step == KILLED_AT:
                    os._exit(1)  # the worker is killed after saving step 4
            return step

        with DriverLog() as log:
            result = outcome(ray, job.remote())
            if is_miniray(ray):
                said = miniray_log("task.start", "worker.died", "task.fail", "task.finish")
            else:
                said = driver_lines(ray, log, "retries remaining")
        with open(resumed) as f:
            resumed_from = [int(line) for line in f if line.strip()]
        return {
            "result": result,
            "attempts": attempts.count(),
            "resumed_from": resumed_from,
            "_said_log": said,
        }
    finally:
        ray.shutdown()
