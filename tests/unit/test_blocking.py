"""A task blocked in get/wait gives its CPU back (miniray/blocking.py), as the `blocked_yield`
conformance scenario recorded on Ray 2.60: what is lent, what is kept, the per-class cap and the
oversubscription when the task takes its CPU back."""

import time

import pytest

import miniray
from miniray import exceptions as E
from miniray import sim
from miniray.copying import shared
from miniray.util.placement_group import placement_group
from miniray.util.scheduling_strategies import PlacementGroupSchedulingStrategy


@pytest.fixture
def spans():
    """(name -> [start, end]) in virtual seconds, noted by bodies; shared by every process."""
    seen: dict = {}

    @shared
    class Spans:
        def note(self, name, start, end):
            seen[name] = [start, end]

        def __getitem__(self, name):
            return seen[name]

        def names(self):
            return sorted(seen)

    return Spans()


def _cpu(ray):
    node = miniray.context.runtime().nodes[0]
    return node.available.get("CPU", 0.0)


def test_three_nested_tasks_on_two_cpus_finish_with_four_in_flight(ray, spans):
    ray.shutdown()
    ray.init(num_cpus=2)

    @ray.remote
    def inner(i):
        t0 = time.time()
        time.sleep(1.5)
        spans.note(f"inner{i}", t0, time.time())
        return i

    @ray.remote
    def outer(i):
        t0 = time.time()
        value = ray.get(inner.remote(i))
        time.sleep(0.2)
        spans.note(f"outer{i}", t0, time.time())
        return value * 10

    assert ray.get([outer.remote(i) for i in range(3)]) == [0, 10, 20]
    starts = sorted((spans[n][0], n) for n in spans.names())
    # Ray's cap holds the third outer task back (two of its class already run on 2 CPUs): the
    # inner tasks of the blocked two run first, on the CPUs they lent.
    assert {n for t, n in starts if t < spans["inner0"][1]} == {"outer0", "outer1", "inner0", "inner1"}
    assert spans["outer2"][0] >= spans["inner0"][1]
    assert _cpu(ray) == 2.0  # every loan paid back


def test_the_cap_is_off_with_worker_cap_enabled_false(spans):
    miniray.init(num_cpus=2, _system_config={"worker_cap_enabled": False})

    @miniray.remote
    def inner(i):
        t0 = time.time()
        time.sleep(1.5)
        spans.note(f"inner{i}", t0, time.time())

    @miniray.remote
    def outer(i):
        t0 = time.time()
        miniray.get(inner.remote(i))
        spans.note(f"outer{i}", t0, time.time())

    miniray.get([outer.remote(i) for i in range(3)])
    assert spans["outer2"][0] == spans["outer0"][0]  # the first lent CPU goes to the next in line
    miniray.shutdown()


def test_a_blocked_task_keeps_its_gpu(spans):
    miniray.init(num_cpus=2, num_gpus=1)

    @miniray.remote(num_gpus=1, num_cpus=0)
    def gpu_job(name):
        t0 = time.time()
        time.sleep(1.0)
        spans.note(name, t0, time.time())

    @miniray.remote(num_gpus=1)
    def waits():
        t0 = time.time()
        miniray.get(slow.remote())
        spans.note("waits", t0, time.time())

    @miniray.remote
    def slow():
        time.sleep(2.0)

    first = waits.remote()
    time.sleep(0.1)
    miniray.get([first, gpu_job.remote("second")])
    assert spans["second"][0] >= spans["waits"][1]  # the GPU stayed with the blocked task
    miniray.shutdown()


def test_an_actor_keeps_its_cpu_while_a_method_blocks(ray, spans):
    ray.shutdown()
    ray.init(num_cpus=1)

    @ray.remote
    def inner():
        return "inner"

    @ray.remote(num_cpus=1)
    class Holder:
        def nest(self):
            return ray.get(inner.remote(), timeout=5)

    holder = Holder.remote()
    with pytest.raises(E.GetTimeoutError):  # the inner task never gets the actor's CPU
        ray.get(holder.nest.remote())


def test_a_task_in_a_bundle_lends_the_bundles_cpu(ray):
    pg = placement_group([{"CPU": 1}])
    ray.get(pg.ready())
    in_bundle = PlacementGroupSchedulingStrategy(placement_group=pg, placement_group_bundle_index=0)

    @ray.remote(num_cpus=1, scheduling_strategy=in_bundle)
    def inner():
        return "inner"

    @ray.remote(num_cpus=1, scheduling_strategy=in_bundle)
    def outer():
        return ray.get(inner.remote(), timeout=5)

    assert ray.get(outer.remote()) == "inner"


def test_taking_the_cpu_back_oversubscribes_and_holds_new_work(ray, spans):
    ray.shutdown()
    ray.init(num_cpus=1)

    @ray.remote
    def inner():
        t0 = time.time()
        time.sleep(1.0)
        spans.note("inner", t0, time.time())

    @ray.remote
    def other():
        t0 = time.time()
        time.sleep(1.0)
        spans.note("other", t0, time.time())

    @ray.remote
    def outer():
        t0 = time.time()
        ray.get(inner.remote())
        time.sleep(3.0)  # running again, on the CPU it took back
        spans.note("outer", t0, time.time())

    sampled = []
    sim.call_at(1.5, lambda: sampled.extend([_cpu(ray), ray.available_resources().get("CPU", 0.0)]))
    ref = outer.remote()
    time.sleep(0.5)  # outer is blocked, inner runs on its CPU
    late = other.remote()
    ray.get([ref, late])
    assert sampled == [-1.0, 0.0]  # at 1.5 s: `other` and the resumed outer share the one CPU
    # `other` took the CPU inner freed (at 1.0) before outer took its loan back: 2 CPUs' worth
    # of work on 1 until `other` ends, then nothing new until outer ends.
    assert spans["other"][0] == pytest.approx(spans["inner"][1])
    assert spans["other"][1] < spans["outer"][1]


def test_a_cancelled_blocked_task_gives_back_only_what_it_still_holds(ray, spans):
    ray.shutdown()
    ray.init(num_cpus=1)

    @ray.remote
    def child():
        t0 = time.time()
        time.sleep(5.0)
        spans.note("child", t0, time.time())

    @ray.remote
    def parent():
        ray.get(child.remote())

    @ray.remote
    def later():
        spans.note("later", time.time(), time.time())

    ref = parent.remote()
    time.sleep(1.0)  # parent blocked, its CPU lent to the child
    ray.cancel(ref, recursive=False)
    with pytest.raises(E.TaskCancelledError):
        ray.get(ref)
    ray.get(later.remote())
    assert spans["later"][0] >= spans["child"][1]  # the child still holds the one CPU
    assert _cpu(ray) == 1.0


def test_a_sleeping_task_lends_nothing(ray, spans):
    ray.shutdown()
    ray.init(num_cpus=1)

    @ray.remote
    def sleeps(name):
        t0 = time.time()
        time.sleep(2.0)
        spans.note(name, t0, time.time())

    ray.get([sleeps.remote("a"), sleeps.remote("b")])
    assert spans["b"][0] == spans["a"][1]


def test_replays_are_the_same_run(spans):
    def once():
        sim.set_seed(3)
        miniray.init(num_cpus=2)

        @miniray.remote
        def inner(i):
            time.sleep(0.5)
            return i

        @miniray.remote
        def outer(i):
            return miniray.get(inner.remote(i))

        miniray.get([outer.remote(i) for i in range(5)])
        text = sim.log_text()
        miniray.shutdown()
        return text

    assert once() == once()
