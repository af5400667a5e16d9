"""The memory monitor (miniray/memory): Ray 2.60's OOM kills, victims, retries and error."""

from __future__ import annotations

import time

import pytest

import miniray
from miniray import sim
from miniray.events import Kind
from miniray.faults import Fault, parse_token
from miniray.memory import oom_retry_delay_s

GB = 1e9


def _kills(rt) -> list:
    return rt._log.of_kind(Kind.MEMORY_KILL)


def _cascade(max_retries: int = 3, config: dict | None = None):
    """Seed 004's cascade on one 16 GB node: one task grows to 13 GB over 4 s among 2 GB ones."""
    sim.set_seed(0)
    sim.use_memory("hungry", 13 * GB, ramp_s=4)
    sim.use_memory("normal", 2 * GB)
    miniray.init(num_cpus=4, memory=16 * GB, _system_config=config)

    @miniray.remote(memory=2 * GB, max_retries=max_retries)
    def hungry():
        time.sleep(4)
        return "hungry"

    @miniray.remote(memory=2 * GB)
    def normal(i):
        time.sleep(4)
        return i

    refs = [hungry.remote()] + [normal.remote(i) for i in range(3)]
    outcomes = []
    for ref in refs:
        try:
            outcomes.append(miniray.get(ref))
        except miniray.exceptions.RayError as e:
            outcomes.append(e)
    rt = sim.last_runtime()
    miniray.shutdown()
    return outcomes, rt


def test_no_declared_memory_means_no_monitor_events(ray):
    @ray.remote
    def f():
        time.sleep(2)
        return 1

    assert ray.get([f.remote() for _ in range(4)]) == [1, 1, 1, 1]
    rt = sim.last_runtime()
    assert not [t for t in rt._kernel.pending() if t.label == "memory-monitor"]
    assert _kills(rt) == []


def test_a_node_that_cannot_pass_its_threshold_is_not_sampled():
    sim.set_seed(0)
    miniray.init(num_cpus=4, memory=16 * GB)
    sim.use_memory("small", 3 * GB, ramp_s=2)

    @miniray.remote
    def small():
        time.sleep(100)
        return 1

    refs = [small.remote() for _ in range(4)]  # 12 GB at most: under 95 % of 16 GB
    sim.sleep(1)
    rt = sim.last_runtime()
    assert not [t for t in rt._kernel.pending() if t.label == "memory-monitor" and not t.cancelled]
    assert miniray.get(refs) == [1, 1, 1, 1]
    assert rt._kernel.steps < 100  # no 400 samples over the 100 s
    miniray.shutdown()


def test_newest_lease_dies_first_and_the_retry_does_not_spend_max_retries():
    outcomes, rt = _cascade()
    assert outcomes == ["hungry", 0, 1, 2]
    kills = _kills(rt)
    assert kills, "the node passed 95 % of 16 GB: the monitor must kill"
    # The first victim is the most recently leased worker: the last `normal` started.
    assert kills[0]["victim"] == "normal#3/1"
    assert kills[0].time == pytest.approx(3.0)  # 8.9 + 6 GB at 2.75 s; 15.75 GB > 15.2 at 3.0 s
    assert kills[0]["used_gb"] > 0.95 * 16
    fails = rt._log.of_kind(Kind.TASK_FAIL)
    assert {r["cause"] for r in fails} == {"oom"} and all(r["retry"] for r in fails)


def test_retry_backoff_is_exponential_from_one_second_and_capped():
    assert [oom_retry_delay_s(n, 1000) for n in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert oom_retry_delay_s(3, 0) == 0.0


def test_max_retries_zero_fails_with_out_of_memory_error():
    sim.set_seed(0)
    sim.use_memory("hog", 20 * GB)
    miniray.init(num_cpus=2, memory=16 * GB)

    @miniray.remote(max_retries=0)
    def hog():
        time.sleep(5)
        return 1

    with pytest.raises(miniray.exceptions.OutOfMemoryError) as info:
        miniray.get(hog.remote())
    miniray.shutdown()
    err = info.value
    assert isinstance(err, miniray.exceptions.RayError)
    assert not isinstance(err, miniray.exceptions.RayTaskError)
    text = str(err)
    assert text.startswith("1 worker(s) were killed due to the node running low on memory.")
    assert "20.00GB / 16.00GB" in text and "memory usage threshold of 0.950000" in text


def test_task_oom_retries_bounds_the_oom_counter():
    sim.set_seed(0)
    sim.use_memory("hog", 20 * GB)
    miniray.init(num_cpus=2, memory=16 * GB, _system_config={"task_oom_retries": 2})

    @miniray.remote
    def hog():
        time.sleep(5)
        return 1

    with pytest.raises(miniray.exceptions.OutOfMemoryError):
        miniray.get(hog.remote())
    rt = sim.last_runtime()
    miniray.shutdown()
    starts = [r.time for r in rt._log.of_kind(Kind.TASK_START)]
    # Three attempts, each killed at the first sample (0.25 s); retries 1 s and 2 s later.
    assert starts == pytest.approx([0.0, 1.25, 3.5])


def test_retriable_work_is_killed_before_work_that_cannot_retry():
    sim.set_seed(0)
    sim.use_memory("keep", 9 * GB)
    sim.use_memory("spare", 9 * GB)
    miniray.init(num_cpus=2, memory=16 * GB)

    @miniray.remote(max_retries=0)
    def keep():
        time.sleep(3)
        return "keep"

    @miniray.remote(max_retries=1)
    def spare():
        time.sleep(3)
        return "spare"

    a = spare.remote()  # leased first: older, but retriable
    b = keep.remote()  # the newest lease, but it cannot be retried
    assert miniray.get([a, b]) == ["spare", "keep"]
    rt = sim.last_runtime()
    miniray.shutdown()
    assert [k["victim"] for k in _kills(rt)][0] == "spare#1/1"


def test_legacy_group_policy_does_not_retry_a_callers_last_task():
    # Ray's docs: "at least one task is able to run for each caller": a caller's only running task
    # is killed without a retry, even with max_retries left, so the job fails instead of looping.
    sim.set_seed(0)
    sim.use_memory("hog", 20 * GB)
    miniray.init(num_cpus=2, memory=16 * GB, _system_config={"worker_killing_policy_by_group": True})

    @miniray.remote(max_retries=3)
    def hog():
        time.sleep(5)
        return 1

    with pytest.raises(miniray.exceptions.OutOfMemoryError):
        miniray.get(hog.remote())
    rt = sim.last_runtime()
    miniray.shutdown()
    assert len(_kills(rt)) == 1


def test_legacy_group_policy_retries_when_the_caller_has_other_tasks():
    outcomes, rt = _cascade(config={"worker_killing_policy_by_group": True})
    assert outcomes == ["hungry", 0, 1, 2]
    assert _kills(rt)[0]["victim"] == "normal#3/1"


def test_refresh_zero_disables_the_monitor():
    outcomes, rt = _cascade(config={"memory_monitor_refresh_ms": 0})
    assert outcomes == ["hungry", 0, 1, 2]
    assert _kills(rt) == []


def test_same_seed_same_log():
    _, first = _cascade()
    _, second = _cascade()
    assert first._log.text() == second._log.text()
    assert "memory.kill" in first._log.text()


def test_use_memory_fault_token_round_trips():
    fault = Fault("use_memory", "load#2", duration=4.0, size=13e9)
    assert parse_token(fault.token()) == fault
    with pytest.raises(ValueError, match="size="):
        Fault("use_memory", "load")


def test_actor_killed_by_the_monitor_restarts_under_max_restarts():
    sim.set_seed(0)
    sim.use_memory("Cache", 17 * GB)
    miniray.init(num_cpus=2, memory=16 * GB)

    @miniray.remote(max_restarts=1)
    class Cache:
        def ping(self):
            return "pong"

    cache = Cache.remote()
    miniray.get(cache.ping.remote())
    time.sleep(2)
    with pytest.raises(miniray.exceptions.RayActorError):
        for _ in range(10):
            miniray.get(cache.ping.remote())
            time.sleep(1)
    rt = sim.last_runtime()
    miniray.shutdown()
    assert len(_kills(rt)) == 2  # the first life and the one restart


def test_one_pass_kills_as_many_as_bring_the_node_under_threshold_less_the_buffer():
    """Four 5 GB tasks on a 16 GB node: 20 GB is over 0.95 x 16 = 15.2 GB. Ray 2.60's policy
    picks victims until the rest fit under 15.2 - min(5 % of 16, 3 GiB) = 14.4 GB: two of them,
    the newest leases first, killed in the same pass (the by-group policy kills one)."""
    for by_group, expected in ((False, 2), (True, 1)):
        sim.set_seed(0)
        sim.use_memory("big", 5 * GB)
        miniray.init(num_cpus=4, memory=16 * GB, _system_config={"worker_killing_policy_by_group": by_group})

        @miniray.remote(max_retries=0)
        def big(i):
            time.sleep(1)
            return i

        refs = [big.remote(i) for i in range(4)]
        done = []
        for ref in refs:
            try:
                done.append(miniray.get(ref))
            except miniray.exceptions.OutOfMemoryError as e:
                message = str(e)
        first = [r for r in sim.event_log() if r.kind == Kind.MEMORY_KILL]
        at_first_pass = [r for r in first if r.time == first[0].time]
        assert len(at_first_pass) == expected, by_group
        if not by_group:
            assert message.startswith("2 worker(s) were killed")
            assert sorted(r["victim"] for r in at_first_pass) == ["big#3/1", "big#4/1"]  # the newest
        miniray.shutdown()
