"""Actor deaths and restarts: the actor rows of issue 2's table."""

import os

import pytest

from miniray import exceptions as E
from miniray.util.state import list_actors


def make_counter(ray):
    @ray.remote
    class Counter:
        def __init__(self):
            self.n = 0

        def inc(self):
            self.n += 1
            return self.n

        def die(self):
            os._exit(1)

        def fail(self):
            raise ValueError("method failed")

    return Counter


def states(ray):
    return [a.state for a in list_actors()]


def test_actor_death_with_defaults_is_final(ray):
    Counter = make_counter(ray)
    c = Counter.remote()
    assert ray.get(c.inc.remote()) == 1
    dying, queued = c.die.remote(), c.inc.remote()
    for ref in (dying, queued):
        with pytest.raises(E.ActorDiedError):
            ray.get(ref)
    with pytest.raises(E.ActorDiedError):
        ray.get(c.inc.remote())
    assert states(ray) == ["DEAD"]


def test_restart_without_task_retries(ray):
    Counter = make_counter(ray)
    c = Counter.options(max_restarts=1, max_task_retries=0).remote()
    assert ray.get([c.inc.remote(), c.inc.remote()]) == [1, 2]
    dying, queued = c.die.remote(), c.inc.remote()
    for ref in (dying, queued):
        with pytest.raises(E.ActorUnavailableError):
            ray.get(ref)
    assert ray.get(c.inc.remote()) == 1  # __init__ ran again: the state was reset
    assert states(ray) == ["ALIVE"]
    with pytest.raises(E.ActorDiedError):
        ray.get(c.die.remote())
    assert states(ray) == ["DEAD"]


def test_state_transitions_alive_restarting_alive(ray):
    from miniray import sim

    Counter = make_counter(ray)
    c = Counter.options(max_restarts=1).remote()
    ray.get(c.inc.remote())
    c.die.remote()
    with pytest.raises(E.ActorUnavailableError):
        ray.get(c.inc.remote())
    assert ray.get(c.inc.remote()) == 1
    seen = [r["state"] for r in sim.event_log() if r.kind == "actor.state"]
    assert seen == ["ALIVE", "RESTARTING", "ALIVE"]


@pytest.mark.parametrize("max_task_retries", [1, -1])
def test_restart_with_task_retries_reruns_the_calls(ray, runs, max_task_retries):
    @ray.remote(max_restarts=1, max_task_retries=max_task_retries)
    class Once:
        def __init__(self):
            runs.mark("init")

        def work(self, i):
            runs.mark("work")
            if runs["init"] == 1 and i == 0:
                os._exit(1)
            return i

    a = Once.remote()
    refs = [a.work.remote(i) for i in range(3)]
    assert ray.get(refs) == [0, 1, 2]
    assert runs["init"] == 2


def test_method_exception_keeps_actor_alive_and_state(ray):
    Counter = make_counter(ray)
    c = Counter.remote()
    ray.get(c.inc.remote())
    with pytest.raises(ValueError) as info:
        ray.get(c.fail.remote())
    assert type(info.value).__name__ == "RayTaskError(ValueError)"
    assert ray.get(c.inc.remote()) == 2
    assert states(ray) == ["ALIVE"]


def test_kill_no_restart_and_named_lookup(ray):
    Counter = make_counter(ray)
    c = Counter.options(name="counter", max_restarts=3).remote()
    assert ray.get(ray.get_actor("counter").inc.remote()) == 1
    ray.kill(c)
    with pytest.raises(E.ActorDiedError):
        ray.get(c.inc.remote())
    with pytest.raises(ValueError, match="Failed to look up actor"):
        ray.get_actor("counter")


def test_init_error_kills_actor_with_cause(ray):
    @ray.remote
    class Broken:
        def __init__(self):
            raise RuntimeError("no config")

        def ping(self):
            return 1

    b = Broken.remote()
    with pytest.raises(E.ActorDiedError) as info:
        ray.get(b.ping.remote())
    assert "creation task" in str(info.value) and "no config" in str(info.value)
    assert info.value.actor_init_failed


def test_calls_run_in_submission_order_even_when_arguments_wait(ray):
    import time

    @ray.remote
    def slow(x):
        time.sleep(5)
        return x

    @ray.remote
    class Log:
        def __init__(self):
            self.seen = []

        def add(self, x):
            self.seen.append(x)
            return list(self.seen)

    log = Log.remote()
    first = log.add.remote(slow.remote("a"))
    second = log.add.remote("b")
    assert ray.get(second) == ["a", "b"]
    assert ray.get(first) == ["a"]


def test_a_call_whose_argument_failed_does_not_block_the_queue(ray):
    @ray.remote
    def broken():
        raise ValueError("upstream")

    @ray.remote
    class Echo:
        def echo(self, x):
            return x

    e = Echo.remote()
    bad = e.echo.remote(broken.remote())
    good = e.echo.remote("fine")
    assert ray.get(good) == "fine"
    with pytest.raises(ValueError, match="upstream"):
        ray.get(bad)
