"""The event catalogue: every record the runtime logs is listed, with its fields, and nothing else gets in."""

import pytest

from miniray import sim
from miniray.events import CATALOGUE, CatalogueError, Kind
from miniray.log import EventLog
from miniray.observe.timeline import HANDLERS
from miniray.states import ActorState, NodeHealthState, ObjectState, TaskState


def test_every_kind_has_an_entry_and_every_entry_a_kind():
    assert set(CATALOGUE) == set(Kind)


def test_the_log_refuses_an_unknown_kind_or_field():
    log = EventLog(CATALOGUE)
    log.emit(0.0, Kind.NODE_RESUMED, node="node:1")
    with pytest.raises(CatalogueError, match="unknown event kind 'node.exploded'"):
        log.emit(0.0, "node.exploded", node="node:1")
    with pytest.raises(CatalogueError, match=r"missing \['node'\]"):
        log.emit(0.0, Kind.NODE_RESUMED)
    with pytest.raises(CatalogueError, match=r"unexpected \['colour'\]"):
        log.emit(0.0, Kind.NODE_RESUMED, node="node:1", colour="red")
    assert [r.kind for r in log.records] == ["node.resumed"]
    assert type(log.records[0].kind) is str  # records hold the plain name


def test_a_log_without_a_catalogue_takes_any_kind():
    log = EventLog()
    log.emit(1.0, "shard.state", shard=2)
    assert log.records[0].line().split() == ["1.000000", "shard.state", "shard=2"]


def test_the_timeline_draws_only_catalogued_kinds(ray):
    assert set(HANDLERS) <= set(Kind)

    @ray.remote
    def f():
        return 1

    assert ray.get(f.remote()) == 1
    assert {r.kind for r in sim.event_log()} <= set(Kind)


def test_states_are_strings_that_print_as_before():
    assert TaskState.RUNNING == "RUNNING" and hash(TaskState.RUNNING) == hash("RUNNING")
    assert repr(ActorState.ALIVE) == "'ALIVE'" and f"{ActorState.DEAD}" == "DEAD"
    assert str(ObjectState.PENDING) == "pending"
    assert repr({"state": NodeHealthState.SUSPECT}) == "{'state': 'SUSPECT'}"
