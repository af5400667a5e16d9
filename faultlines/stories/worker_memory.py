"""Lesson 4's story of a worker's memory: state kept outside the actor instance, on Ray's terms.

Each worker is its own process in Ray, with its own copy of the module-level and closure state
its functions use, taken when the function was first submitted. So a task's writes to a global
never reach the driver, and an actor that counts in a closure variable starts again from zero
when its process is replaced. The same cases, as a plain Ray script, were run on a real Ray 2.60
cluster with the same answers.
"""

from __future__ import annotations

import miniray as ray
from miniray import sim

SEEN: list = []  # module-level state: each worker process gets its own copy


def global_list() -> dict:
    """Four tasks, one after another on one worker process, append to a module-level list."""
    ray.init(num_cpus=1)

    @ray.remote
    def record(x):
        SEEN.append(x)
        return len(SEEN)  # what this worker process's own list holds now

    tasks_saw = [ray.get(record.remote(i)) for i in range(4)]
    return {"tasks_saw": tasks_saw, "driver_sees": list(SEEN)}


def closure_counter(keep_in_instance: bool = False) -> dict:
    """An actor counts calls; its process dies once and Ray restarts it (max_restarts=1).

    With `keep_in_instance=False` the count lives in a closure variable, outside the actor;
    with True it lives in `self.n`. Either way a restart starts again from the definition:
    memory is not a place to keep what must survive a crash (a checkpoint is, lesson 4)."""
    ray.init(num_cpus=1)
    calls = 0

    @ray.remote(max_restarts=1)
    class Counter:
        def __init__(self):
            self.n = 0

        def incr(self):
            nonlocal calls
            calls += 1
            self.n += 1
            return self.n if keep_in_instance else calls

    counter = Counter.remote()  # type: ignore[attr-defined]  # @ray.remote made it an actor class
    before = [ray.get(counter.incr.remote()) for _ in range(3)]
    sim.kill_actor(counter)  # its process dies (as a crash would); Ray starts a new one
    sim.sleep(2.0)
    after = ray.get(counter.incr.remote())
    return {"before": before, "after_restart": after, "driver_sees": calls}
