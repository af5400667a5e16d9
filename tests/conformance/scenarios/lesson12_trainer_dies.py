"""Lesson 12's story on both backends: a trainer actor saves a checkpoint every 5 steps and its
process dies during step 13.

With `max_restarts=0` (Ray's default) the call raises `ActorDiedError` and so does every later
one: the job is lost at step 12. With `max_restarts=2` and `max_task_retries=-1`, `__init__`
runs again, reloads step 10, the call that died is resent, and training reaches step 20 with
the same weights as a run without the death (steps 11 to 13 are trained twice). Shown, not
compared: the error of the first case as each backend prints it.
"""

import json
import os

from _observe import RunLog, describe_error, get_or_error
from _said import error as said_error

STEPS, EVERY, DIES_IN = 20, 5, 13


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        return {
            "max_restarts_0": _train(ray, workdir, "plain", max_restarts=0),
            "max_restarts_2": _train(ray, workdir, "restarts", max_restarts=2),
        }
    finally:
        ray.shutdown()


def _train(ray, workdir, label, max_restarts):
    checkpoint = os.path.join(workdir, f"{label}.ckpt")
    died_once = os.path.join(workdir, f"{label}.died")
    inits = RunLog(workdir, f"{label}_init")

    @ray.remote(max_restarts=max_restarts, max_task_retries=-1)
    class Trainer:
        def __init__(self):
            inits.bump()
            state = {"step": 0, "weights": 0}
            if os.path.exists(checkpoint):
                with open(checkpoint) as f:
                    state = json.load(f)
            self.restored = state["step"]
            self.step, self.weights = state["step"], state["weights"]

        def train_step(self):
            if self.step + 1 == DIES_IN and not os.path.exists(died_once):
                open(died_once, "w").close()
                os._exit(1)  # the process dies in step 13, once
            self.step += 1
            self.weights += self.step  # the "model": the sum of the steps it has trained on
            if self.step % EVERY == 0:
                with open(checkpoint, "w") as f:
                    json.dump({"step": self.step, "weights": self.weights}, f)
            return self.step, self.weights

        def restored_from(self):
            return self.restored

    trainer = Trainer.remote()
    step, weights, error, said = 0, 0, None, ""
    while step < STEPS:
        value, exc = get_or_error(ray, trainer.train_step.remote())
        if exc is not None:
            error, said = describe_error(ray, exc), said_error(exc)
            break
        step, weights = value
    later, _ = get_or_error(ray, trainer.restored_from.remote())
    later_exc = get_or_error(ray, trainer.restored_from.remote())[1]
    return {
        "error": error,
        "_said_error": said,
        "last_step": step,
        "weights": weights,
        "expected_weights": STEPS * (STEPS + 1) // 2,
        "init_runs": inits.count(),
        "restored_from_step": later,
        "later_call_error": None if later_exc is None else type(later_exc).__name__,
    }
