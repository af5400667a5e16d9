"""A worker's memory is its own: module-level, closure and class-attribute state that tasks and
actors use lives in each worker process, copied from the definition as the driver exported it.

Every remote function here is defined inside `run`, so on Ray cloudpickle ships it by value, with
the module-level globals it names (as it does for a script's `__main__`); miniray copies the same
state into each simulated worker process. Rows:

* global_in_task: tasks append to a module-level list and bump a counter; the driver's stay as
  they were, and tasks that run one after another on one worker process share that process's.
* closure_across_restart: an actor counts in a closure variable; after its process dies and it
  restarts, the count starts again from the definition.
* driver_change_after_export: the driver changes a global before and after the first
  `.remote()`: the worker sees the value of the moment of the first `.remote()`.
* class_attribute_between_actors: two actors of one class append to a mutable class attribute:
  each actor process has its own.
"""

import os

from _observe import outcome, pass_time, wait_until

SEEN = []
COUNT = 0
CONFIG = {"factor": 2}


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)  # one CPU: tasks run one after another, on a worker process Ray reuses
    try:
        return {
            "global_in_task": _global_in_task(ray),
            "closure_across_restart": _closure_across_restart(ray),
            "driver_change_after_export": _driver_change(ray),
            "class_attribute_between_actors": _class_attribute(ray),
        }
    finally:
        ray.shutdown()


def _global_in_task(ray):
    @ray.remote
    def record(x):
        global COUNT
        SEEN.append(x)
        COUNT += 1
        return [os.getpid(), len(SEEN), COUNT]

    got = [ray.get(record.remote(i)) for i in range(4)]
    by_pid = {}
    for pid, seen, count in got:
        by_pid.setdefault(pid, []).append([seen, count])
    return {
        "driver_list_after": list(SEEN),
        "driver_count_after": COUNT,
        # On each worker process, what the task saw: its process's own list, growing by one.
        "each_process_counts_from_one": all(
            views == [[i, i] for i in range(1, len(views) + 1)] for views in by_pid.values()
        ),
        "_views_by_process": list(by_pid.values()),
    }


def _closure_across_restart(ray):
    def make():
        calls = 0

        @ray.remote(max_restarts=1)
        class Counter:
            def incr(self):
                nonlocal calls
                calls += 1
                return calls

            def pid(self):
                return os.getpid()

        return Counter, lambda: calls

    Counter, driver_calls = make()
    counter = Counter.remote()
    before = [ray.get(counter.incr.remote()) for _ in range(3)]
    pid = ray.get(counter.pid.remote())
    ray.kill(counter, no_restart=False)  # its process dies; max_restarts=1 brings it back
    pass_time(ray, 0.5)
    back = wait_until(
        ray, lambda: outcome(ray, counter.pid.remote(), timeout=5).get("value") not in (None, pid)
    )
    after = outcome(ray, counter.incr.remote())
    return {"before": before, "restarted": back, "after_restart": after, "driver_closure": driver_calls()}


def _driver_change(ray):
    @ray.remote
    def factor():
        return CONFIG["factor"]

    CONFIG["factor"] = 3  # before the first .remote(): exported with the function
    first = ray.get(factor.remote())
    CONFIG["factor"] = 5  # after it: the exported copy is what every worker loads
    later = [ray.get(factor.remote()) for _ in range(3)]
    CONFIG["factor"] = 2
    return {"first_call": first, "after_the_change": later}


def _class_attribute(ray):
    @ray.remote(num_cpus=0)
    class Registry:
        names = []

        def add(self, name):
            Registry.names.append(name)
            return list(Registry.names)

    a, b = Registry.remote(), Registry.remote()
    first = ray.get(a.add.remote("a1"))
    other = ray.get(b.add.remote("b1"))
    second = ray.get(a.add.remote("a2"))
    return {"a_first": first, "b_first": other, "a_second": second, "driver_class_attr": list(Registry.names)}
