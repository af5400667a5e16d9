"""Lesson 4's story on both backends: a counter actor with `max_restarts=2` and
`max_task_retries=-1` whose process exits on the call after every seventh answer, called 20
times, one call after another.

Observed: every call returns a number and none raises, yet the counts start again from 1 after
each death (`__init__` set the count to 0, and the call that killed a life was resent to the
next one); the actor's state at the end is far below the 20 increments the caller was told of.
"""

import os

from _observe import RunLog, outcome

CALLS = 20
ANSWERS_PER_LIFE = 7


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        inits = RunLog(workdir, "init")

        @ray.remote(max_restarts=2, max_task_retries=-1)
        class Counter:
            def __init__(self, init_log):
                init_log.bump()
                self.count = 0
                self.answered = 0

            def incr(self):
                if self.answered == ANSWERS_PER_LIFE:
                    os._exit(1)  # the process dies; Ray restarts it and resends this call
                self.answered += 1
                self.count += 1
                return self.count

        counter = Counter.remote(inits)
        outcomes = [outcome(ray, counter.incr.remote()) for _ in range(CALLS)]
        values = [o.get("value") for o in outcomes]
        return {
            "returned": values,
            "errors": sum("error" in o for o in outcomes),
            "init_runs": inits.count(),
            "final_count": values[-1],
        }
    finally:
        ray.shutdown()
