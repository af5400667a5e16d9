"""The stall_actor fault (a gray failure): the actor's process stays alive, so the actor stays ALIVE
and nothing fails; its call never returns and later calls wait behind it, as a hung method does on
Ray 2.60 (tests/conformance/scenarios/actor_stall.py records it)."""

import time

import pytest

from miniray import exceptions as E
from miniray import sim
from miniray.faults import parse_token
from miniray.util import state


def _service(ray):
    @ray.remote(max_restarts=1, max_task_retries=0)
    class Service:
        def handle(self, seconds):
            time.sleep(seconds)
            return "handled"

        def ping(self):
            return "pong"

    return Service.remote()


def test_a_stalled_actor_stays_alive_and_its_calls_never_return(ray):
    service = _service(ray)
    assert ray.get(service.ping.remote()) == "pong"
    hung = service.handle.remote(1)  # would take a second
    sim.stall_actor(service, at=0.5)
    with pytest.raises(E.GetTimeoutError):
        ray.get(hung, timeout=10)
    later = service.ping.remote()
    with pytest.raises(E.GetTimeoutError):
        ray.get(later, timeout=10)
    assert ray.wait([hung, later], timeout=5)[0] == []
    (row,) = state.list_actors()
    assert row.state == "ALIVE"
    ray.kill(service, no_restart=False)  # a new process is not hung
    with pytest.raises(E.ActorUnavailableError):
        ray.get(hung)
    with pytest.raises(E.ActorUnavailableError):
        ray.get(later)
    assert ray.get(service.ping.remote()) == "pong"
    (stalled,) = [r for r in sim.event_log() if r.kind == sim.Kind.ACTOR_STALLED]
    assert stalled.time == 0.5 and stalled.fields["actor"] == repr(service._actor)


def test_a_stall_with_nothing_running_hangs_the_next_call(ray):
    service = _service(ray)
    assert ray.get(service.ping.remote()) == "pong"
    sim.stall_actor(service, at=1)
    sim.sleep(2)
    with pytest.raises(E.Stalled, match="stalled process"):
        ray.get(service.ping.remote())  # nothing else can happen: miniray says so, Ray would hang


def test_a_stall_token_round_trips():
    fault = parse_token("stall_actor Service#1 after_event=4")
    assert fault.token() == "stall_actor Service#1 after_event=4"
    assert fault.describe() == "actor Service#1's process hangs: alive, but its calls never return"
