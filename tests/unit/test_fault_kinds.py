"""Fault kinds live in one table (miniray/fault_kinds.py): every part of miniray reads them there,
and adding one is one entry (docs/design/contributing.md; tests/contributing/ shows it on a copy
of miniray)."""

from __future__ import annotations

import inspect
from dataclasses import replace

import pytest

from miniray import sim
from miniray.fault_entry import Boundary, FaultKind, Move, Param
from miniray.fault_kinds import KINDS, moves
from miniray.faults import ChoicePoints, Fault, parse_token


def test_every_kind_has_its_helper_its_token_and_its_events():
    for name, kind in KINDS.items():
        helper = getattr(sim, name)
        assert helper.__doc__ == kind.doc and name in sim.__all__
        taken = set(inspect.signature(helper).parameters)
        assert taken >= set(kind.helper) | {p.helper_name or p.name for p in kind.params}
        assert all(isinstance(e, str) for e in kind.events)
    assert moves() == {
        "node_loss": "kill_node",
        "pause": "pause_node",
        "crash": "crash",
        "drain": "drain_node",
        "stall": "stall_actor",
        "cancel": "cancel_task",
        "preempt": "preempt_node",
    }
    assert dict(sim.fault_kinds()) == KINDS


def test_fields_a_kind_needs_are_checked_from_its_entry():
    with pytest.raises(ValueError, match="needs step="):
        Fault("crash", "f#1/1")
    with pytest.raises(ValueError, match="needs size="):
        Fault("use_memory", "load")
    with pytest.raises(ValueError, match="unknown fault kind 'boom'"):
        Fault("boom", "x")
    assert parse_token("crash f#1/1 step=0") == Fault("crash", "f#1/1", step=0)


def test_a_kind_takes_only_its_own_parameters_typed_by_its_entry():
    with pytest.raises(
        ValueError, match=r"'kill_node' fault has no parameter 'duration' \(its parameters: none\)"
    ):
        Fault("kill_node", "node:1", duration=3.0)
    with pytest.raises(ValueError, match="duration= is float"):
        Fault("pause_node", "node:1", duration="long")
    with pytest.raises(ValueError, match="duration= is float, got 'x'"):
        parse_token("pause_node node:1 at=1.0 duration=x")
    with pytest.raises(ValueError, match="'after_event' is not name=value|is not name=value"):
        parse_token("kill_node node:1 after_event")
    pause = parse_token("pause_node node:1 after_event=9 duration=12")
    assert pause.duration == 12.0 and pause.params == (("duration", 12.0),)
    assert replace(pause, after_event=3).token() == "pause_node node:1 after_event=3 duration=12.0"


def test_tokens_are_written_as_before():
    for token in (
        "crash f#1/2 step=3",
        "kill_node node:1 after_event=14",
        "pause_node node:1 at=3.0 duration=15.0",
        "pause_node node:1 after_event=9 duration=12.0",
        "hang_node 0123abcd at=2.0",
        "kill_worker node:2 at=0.5",
        "use_memory load duration=4.0 size=13000000000.0",
        "kill_gcs head at=5.0",
    ):
        assert parse_token(token).token() == token
    assert Fault("hang_node", "n", at=2).token() == "hang_node n at=2"  # an int time stays an int


def test_a_parameter_cannot_take_the_name_of_a_faults_own_field():
    for name in ("at", "step", "target", "params"):
        with pytest.raises(ValueError, match=f"may not be called '{name}'"):
            FaultKind("toy", lambda inj, fault: None, "A toy.", params=(Param(name),))


def test_a_string_parameter_is_one_word_in_its_token():
    drain = FaultKind(
        "toy_drain",
        lambda inj, fault: None,
        "A toy entry with a word-valued parameter.",
        params=(Param("reason", str, "preemption", "why"), Param("deadline_s", float, 0.0, "seconds")),
        move=Move("drain", Boundary.NODE_EVENT, {"deadline_s": 30.0}),
        words="node {target} drains ({reason}) within {deadline_s:g} s",
    )
    KINDS["toy_drain"] = drain
    try:
        fault = parse_token("toy_drain node:1 at=2.0 reason=idle deadline_s=5")
        assert (fault.reason, fault.deadline_s) == ("idle", 5.0)
        assert fault.token() == "toy_drain node:1 at=2.0 reason=idle deadline_s=5.0"
        assert Fault("toy_drain", "node:1", at=1.0).token() == "toy_drain node:1 at=1.0"  # defaults left out
        assert fault.describe() == "node node:1 drains (idle) within 5 s"
        with pytest.raises(ValueError, match="one word"):
            Fault("toy_drain", "node:1", reason="two words")
        points = ChoicePoints(marks=[(4, ("node:1", "node:2"))]).points(Boundary.NODE_EVENT)
        assert drain.move_tokens(points) == [
            "toy_drain node:1 after_event=4 deadline_s=30.0",
            "toy_drain node:2 after_event=4 deadline_s=30.0",
        ]
        assert drain.move_tokens(points[:1], {"reason": "idle"}) == [
            "toy_drain node:1 after_event=4 reason=idle deadline_s=30.0"
        ]
    finally:
        del KINDS["toy_drain"]


def test_choice_points_are_listed_once_for_every_boundary():
    points = ChoicePoints(events=2, attempts=[("f#1/1", 1)], nodes=["n1"], actors=["Counter#1"])
    assert points.points(Boundary.STEP) == [("f#1/1", "step", 0), ("f#1/1", "step", 1)]
    assert points.points(Boundary.NODE_EVENT) == [("n1", "after_event", 0), ("n1", "after_event", 1)]
    assert points.points(Boundary.ACTOR_EVENT) == [
        ("Counter#1", "after_event", 0),
        ("Counter#1", "after_event", 1),
    ]
    marked = ChoicePoints(events=9, nodes=["n1"], actors=["Counter#1"], marks=[(4, ())])
    assert marked.points(Boundary.NODE_EVENT) == []
    assert marked.points(Boundary.ACTOR_EVENT) == [("Counter#1", "after_event", 4)]
    assert [f.token() for f in points.crashes()] == ["crash f#1/1 step=0", "crash f#1/1 step=1"]
    assert [f.token() for f in points.node_kills()] == [
        "kill_node n1 after_event=0",
        "kill_node n1 after_event=1",
    ]


def test_a_helper_is_made_from_the_entry():
    assert str(inspect.signature(sim.use_memory)) == "(target, size, *, ramp_s=0.0)"
    assert str(inspect.signature(sim.pause_node)) == "(target, duration, *, at=None)"
    assert str(inspect.signature(sim.hang_node)) == "(target, *, duration=0.0, at=None)"


def test_a_run_lists_its_actors_as_faults_name_them(ray):
    @ray.remote
    class Counter:
        def add(self):
            return 1

    counters = [Counter.remote(), Counter.remote()]
    ray.get([c.add.remote() for c in counters])
    assert sim.choice_points().actors == ["Counter#1", "Counter#2"]
    sim.kill_actor("Counter#2")  # the name a choice point gives it reaches that actor
    sim.sleep(1)
    dead = [
        r.fields["actor"] for r in sim.event_log() if r.kind == "actor.state" and r.fields["state"] == "DEAD"
    ]
    assert dead == [f"Counter({counters[1]._actor_id[:8]})"]
