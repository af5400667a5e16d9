"""A task blocked in `ray.get` gives its CPU back while it waits (issue 29).

Three outer tasks on 2 CPUs, each getting an inner task: all finish, the inner tasks of the two
blocked outer tasks run before the third outer task starts (Ray caps one function's running
tasks at the node's CPUs, blocked ones included, for a 1 s backoff), so at most four tasks are in
flight. An actor with `num_cpus=1` keeps its CPU while a method blocks: its inner task waits for
the CPU a filler task holds, where a task in its place would have lent its own. A default actor
holds no CPU while it runs. A task in a one-CPU placement-group bundle lends the bundle's CPU to
an inner task placed in the same bundle (ray PR #43270), which would otherwise never start.

Each body notes when it started (`time.time()` at its first line: virtual and journaled on
miniray) and writes its marks after its last blocking call (see RunLog).
"""

import json
import os
import time

WINDOW_S = 20  # a nested get that never returns times out here instead of hanging the run

# Real Ray needs about a minute for this one (filler tasks of 6 s, worker starts): checked against
# the recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


class Marks:
    """(task, event, time) marks written by bodies, one file per body, read back by the driver."""

    def __init__(self, workdir, name):
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir, exist_ok=True)

    def write(self, task, **times):
        with open(os.path.join(self.dir, task), "w") as f:
            json.dump([[task, event, t] for event, t in times.items()], f)

    def read(self):
        marks = []
        for name in sorted(os.listdir(self.dir)):
            with open(os.path.join(self.dir, name)) as f:
                marks += json.load(f)
        return sorted(marks, key=lambda m: (m[2], m[0], m[1]))

    def at(self, task, event):
        return next(t for name, ev, t in self.read() if name == task and ev == event)


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        return {
            "nested_tasks": _nested_tasks(ray, Marks(workdir, "nested")),
            "actor_num_cpus_1": _actor_keeps_its_cpu(ray, Marks(workdir, "actor")),
            "task_num_cpus_1": _task_lends_its_cpu(ray, Marks(workdir, "task")),
            "default_actor": _default_actor(ray, Marks(workdir, "default")),
            "bundle": _bundle(ray, Marks(workdir, "bundle")),
        }
    finally:
        ray.shutdown()


def _nested_tasks(ray, marks):
    @ray.remote
    def inner(i):
        t0 = time.time()
        time.sleep(1.5)
        marks.write(f"inner{i}", start=t0, end=time.time())
        return i

    @ray.remote
    def outer(i):
        t0 = time.time()
        value = ray.get(inner.remote(i))
        t1 = time.time()
        time.sleep(0.2)
        marks.write(f"outer{i}", start=t0, resumed=t1, end=time.time())
        return value * 10

    values = ray.get([outer.remote(i) for i in range(3)])
    seen = marks.read()
    starts = [name for name, event, _ in seen if event == "start"]
    spans = {name: [t for n, e, t in seen if n == name and e in ("start", "end")] for name in starts}
    first_inner_end = min(t for name, (_, t) in spans.items() if name.startswith("inner"))
    third = [name for name in starts if name.startswith("outer")][2]
    # Kinds, not names: which outer task starts third is a race on Ray (and a tie on miniray).
    before = sorted(name.rstrip("0123456789") for name in starts if spans[name][0] < first_inner_end)
    return {
        "values": values,
        "started_before_the_first_inner_ends": before,
        "third_outer_starts_after_an_inner_ends": spans[third][0] >= first_inner_end,
        "peak_in_flight": _peak(spans.values()),
        "_marks": [[name, event, round(t - seen[0][2], 2)] for name, event, t in seen],
    }


def _peak(spans):
    """The most spans open at once; one ending where another starts is not counted as overlap."""
    edges = sorted(
        [(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans], key=lambda e: (e[0], e[1])
    )
    level = peak = 0
    for _, step in edges:
        level += step
        peak = max(peak, level)
    return peak


def _inner_and_filler(ray, marks):
    @ray.remote
    def inner(name):
        t0 = time.time()
        time.sleep(0.5)
        marks.write(name, start=t0, end=time.time())
        return name

    @ray.remote
    def filler(seconds):
        t0 = time.time()
        time.sleep(seconds)
        marks.write("filler", start=t0, end=time.time())
        return "filler"

    return inner, filler


def _actor_keeps_its_cpu(ray, marks):
    inner, filler = _inner_and_filler(ray, marks)

    @ray.remote(num_cpus=1)
    class Holder:
        def ready(self):
            return True

        def nest(self):
            try:
                return ray.get(inner.remote("inner"), timeout=WINDOW_S)
            except ray.exceptions.GetTimeoutError:
                return "GetTimeoutError"

    holder = Holder.remote()
    ray.get(holder.ready.remote())  # holds one of the 2 CPUs from now on
    busy = filler.remote(6.0)  # holds the other
    time.sleep(1.5)
    value = ray.get(holder.nest.remote())
    ray.get(busy)
    ray.kill(holder)
    return {
        "value": value,
        "inner_starts_after_filler_ends": marks.at("inner", "start") >= marks.at("filler", "end"),
    }


def _task_lends_its_cpu(ray, marks):
    inner, filler = _inner_and_filler(ray, marks)

    @ray.remote(num_cpus=1)
    def nest():
        return ray.get(inner.remote("inner"), timeout=WINDOW_S)

    busy = filler.remote(6.0)
    time.sleep(1.5)
    value = ray.get(nest.remote())
    ray.get(busy)
    return {
        "value": value,
        "inner_starts_before_filler_ends": marks.at("inner", "start") < marks.at("filler", "end"),
    }


def _default_actor(ray, marks):
    inner, filler = _inner_and_filler(ray, marks)

    @ray.remote
    class Plain:
        def ready(self):
            return True

        def nest(self):
            return ray.get(inner.remote("inner"), timeout=WINDOW_S)

    plain = Plain.remote()
    ray.get(plain.ready.remote())
    time.sleep(1.0)  # Ray's resource view catches up with the actor's creation
    cpus_free = ray.available_resources().get("CPU")
    busy = filler.remote(6.0)
    time.sleep(1.5)
    value = ray.get(plain.nest.remote())
    ray.get(busy)
    ray.kill(plain)
    return {
        "cpus_free_beside_it": cpus_free,
        "value": value,
        "inner_starts_before_filler_ends": marks.at("inner", "start") < marks.at("filler", "end"),
    }


def _bundle(ray, marks):
    pg_mod = __import__(ray.__name__ + ".util.placement_group", fromlist=["placement_group"])
    strategies = __import__(ray.__name__ + ".util.scheduling_strategies", fromlist=["x"])
    pg = pg_mod.placement_group([{"CPU": 1}])
    ray.get(pg.ready())
    in_bundle = strategies.PlacementGroupSchedulingStrategy(
        placement_group=pg, placement_group_bundle_index=0
    )

    @ray.remote(num_cpus=1, scheduling_strategy=in_bundle)
    def inner():
        t0 = time.time()
        time.sleep(0.5)
        marks.write("inner", start=t0, end=time.time())
        return "inner"

    @ray.remote(num_cpus=1, scheduling_strategy=in_bundle)
    def outer():
        try:
            return ray.get(inner.remote(), timeout=WINDOW_S)
        except ray.exceptions.GetTimeoutError:
            return "GetTimeoutError"

    value = ray.get(outer.remote())
    pg_mod.remove_placement_group(pg)
    return {"value": value}
