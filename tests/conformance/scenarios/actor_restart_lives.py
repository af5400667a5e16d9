"""How many calls does an actor with max_restarts=4 answer if each life crashes after ten?

Lesson 4's count. The setup of Ray's actor-restart documentation example, written anew: a
counter whose process exits on the call after its tenth answer in a life, with
max_restarts=4 and max_task_retries=-1, called 55 times one after another. Observed: the
outcome of every call, and how many times __init__ ran. Real Ray 2.60 answers 50 calls (ten
in each of five lives) and then raises ActorDiedError.

With max_task_retries=0 the observations are informational only ("_" keys, not compared):
real Ray also fails calls sent while the actor is still restarting, so how many calls raise
ActorUnavailableError depends on timing (two recordings differed); miniray queues them.
"""

import os

from _observe import RunLog, outcome

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False

CALLS = 55
ANSWERS_PER_LIFE = 10


def make_counter(ray):
    @ray.remote
    class Counter:
        def __init__(self, init_log):
            init_log.bump()
            self.count = 0
            self.answered = 0

        def incr(self):
            if self.answered == ANSWERS_PER_LIFE:
                os._exit(1)
            self.answered += 1
            self.count += 1
            return self.count

    return Counter


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        Counter = make_counter(ray)
        observations = {}
        for retries, label in ((-1, "max_task_retries_minus1"), (0, "_max_task_retries_0")):
            init_log = RunLog(workdir, label + "_init")
            counter = Counter.options(max_restarts=4, max_task_retries=retries).remote(init_log)
            outcomes = [outcome(ray, counter.incr.remote()) for _ in range(CALLS)]
            observations[label] = {
                "outcomes": _classes(outcomes),
                "answered": sum("value" in o for o in outcomes),
                "unavailable": sum(o == "ActorUnavailableError" for o in _classes(outcomes)),
                "init_runs": init_log.count(),
            }
        return observations
    finally:
        ray.shutdown()


def _classes(outcomes):
    """Each call's value, or the class name of its error."""
    return [o["value"] if "value" in o else o["error"]["class"] for o in outcomes]
