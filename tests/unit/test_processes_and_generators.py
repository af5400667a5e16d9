"""Simulated pids and signals, exits, cancel, generators and init: the parts Ray's examples use
that the conformance scenarios (recorded on real Ray) do not pin down on their own."""

from __future__ import annotations

import os
import signal
import sys

import pytest

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster


def test_worker_pids_are_simulated_and_the_driver_keeps_its_own(ray):
    real = os.getpid()

    @ray.remote
    def pid():
        return os.getpid()

    first, second = ray.get([pid.remote(), pid.remote()])
    assert first >= 10001 and second >= 10001  # deterministic simulated pids
    assert os.getpid() == real


def test_a_signal_to_a_simulated_pid_never_reaches_the_os(ray):
    @ray.remote(max_restarts=1)
    class Victim:
        def pid(self):
            return os.getpid()

    victim = Victim.remote()
    pid = ray.get(victim.pid.remote())
    os.kill(pid, 0)  # alive: signal 0 only checks
    with pytest.raises(ValueError, match="process-ending signals"):
        os.kill(pid, signal.SIGUSR1)
    os.kill(pid, signal.SIGTERM)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)  # that worker is gone
    assert ray.get(victim.pid.remote()) != pid  # restarted in a new worker
    assert any(r.kind == "worker.signal" for r in sim.event_log())


def test_sys_exit_in_a_task_is_a_crash_that_is_retried(ray, runs):
    @ray.remote(max_retries=1)
    def leaves():
        runs.mark()
        sys.exit(3)

    with pytest.raises(ray.exceptions.WorkerCrashedError):
        ray.get(leaves.remote())
    assert runs["body"] == 2  # the program itself did not exit


def test_exit_actor_outside_an_actor_is_refused(ray):
    with pytest.raises(TypeError, match="non-actor"):
        ray.actor.exit_actor()


def test_an_orphaned_actor_dies_a_moment_after_its_owner(ray):
    @ray.remote
    class Child:
        def ping(self):
            return "pong"

    @ray.remote
    class Parent:
        def make(self):
            self.child = Child.remote()
            return self.child, os.getpid()

    child, pid = ray.get(Parent.remote().make.remote())
    os.kill(pid, signal.SIGKILL)
    assert ray.get(child.ping.remote()) == "pong"  # answered before the death is noticed
    miniray.sim.sleep(1)
    with pytest.raises(ray.exceptions.ActorDiedError, match="owner has died"):
        ray.get(child.ping.remote())


def test_unknown_system_config_keys_are_refused_ray_keys_accepted():
    with pytest.raises(RuntimeError, match="'no_such_key'"):
        miniray.init(_system_config={"no_such_key": 1})
    assert not miniray.is_initialized()
    miniray.init(_system_config={"task_retry_delay_ms": 100, "placement_group_queue_policy": "backoff"})
    miniray.shutdown()


def test_init_takes_the_address_first():
    with pytest.raises(ConnectionError, match="Could not find any running Ray instance"):
        miniray.init("auto")
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 2})
    try:
        miniray.init("auto")
        assert miniray.cluster_resources()["CPU"] == 2
        miniray.shutdown()
    finally:
        c.shutdown()
    miniray.init("local", num_cpus=3)
    assert miniray.cluster_resources()["CPU"] == 3
    miniray.shutdown()


def test_an_unsubclassable_cause_gives_a_plain_ray_task_error(ray, caplog):
    class Final(Exception):
        def __init_subclass__(cls, /, *args, **kwargs):
            raise TypeError("no subclasses")

    @ray.remote
    def raises():
        raise Final("final")

    with pytest.raises(ray.exceptions.RayTaskError) as info:
        ray.get(raises.remote())
    assert type(info.value) is ray.exceptions.RayTaskError and isinstance(info.value.cause, Final)
    assert "can't be subclassed" in caplog.text


def test_a_streaming_generator_that_sleeps_yields_each_item_once(ray):
    import time

    @ray.remote
    def ticks():
        for i in range(3):
            time.sleep(1)
            yield i

    gen = ticks.remote()
    assert isinstance(gen, ray.ObjectRefGenerator)
    start = miniray.sim.now()
    first = next(gen)
    assert ray.get(first) == 0 and miniray.sim.now() - start == pytest.approx(1.0)
    assert [ray.get(r) for r in gen] == [1, 2]
    assert miniray.sim.now() - start == pytest.approx(3.0)


def test_dynamic_generator_returns_a_ref_to_its_refs(ray):
    @ray.remote(num_returns="dynamic")
    def split(n):
        yield from range(n)

    refs = ray.get(split.remote(3))
    assert isinstance(refs, ray.DynamicObjectRefGenerator)
    assert [ray.get(r) for r in refs] == [0, 1, 2]


def test_cancel_a_task_waiting_for_its_argument(ray):
    import time

    @ray.remote
    def slow():
        time.sleep(10)
        return 1

    @ray.remote
    def use(x):
        return x

    blocked = use.remote(slow.remote())
    ray.cancel(blocked)
    with pytest.raises(ray.exceptions.TaskCancelledError):
        ray.get(blocked)
    with pytest.raises(ValueError, match="actor tasks"):

        @ray.remote
        class A:
            def f(self):
                return 1

        ray.cancel(A.remote().f.remote(), force=True)


def test_cancel_running_task_plain_and_forced(ray):
    """What Ray 2.60 gave when probed by hand (force=True is not in the task_errors scenario:
    Ray can abort the driver on it): interrupted -> RayTaskError(TaskCancelledError) naming the
    task; forced -> a plain TaskCancelledError with no text; the worker of the first lives on."""
    import time

    @ray.remote
    def sleeper():
        time.sleep(60)

    running = sleeper.remote()
    miniray.sim.sleep(1)
    ray.cancel(running)
    with pytest.raises(ray.exceptions.TaskCancelledError) as info:
        ray.get(running)
    assert isinstance(info.value, ray.exceptions.RayTaskError) and "was cancelled" in str(info.value)
    forced = sleeper.remote()
    miniray.sim.sleep(1)
    ray.cancel(forced, force=True)
    with pytest.raises(ray.exceptions.TaskCancelledError) as info:
        ray.get(forced)
    assert type(info.value) is ray.exceptions.TaskCancelledError and str(info.value) == ""
