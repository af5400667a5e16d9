"""The course's one reading of a run (faultlines/reading, docs/design/reading.md): its table has a
row for every kind of record, its lanes are the ones Ray's timeline draws, its questions answer
from the records, and a violation's moment comes from the violation's data, never its words."""

from __future__ import annotations

import functools

import pytest
from grader_support import REPO

import miniray
from faultlines.grader import exercise, grade, runner, submission
from faultlines.reading import DIED, FINISHED, RAISED, Broken, Kind, Lane, Reading, Violation, entered, moment
from faultlines.reading import table as reading_table
from faultlines.stories import lineage, retries, squares, zombie
from faultlines.timeline.lanes import from_trace
from miniray import sim
from miniray.sim import Record

KILL = "kill_node node:1 at=1.5"


def test_every_kind_of_record_has_a_row():
    assert set(reading_table.TABLE) == {k.value for k in Kind}
    raw = reading_table.of("shard.state")  # a kind the table has no row for reads as its fields
    assert raw.sentence(None, {"shard": 2}) == "shard.state shard=2"  # type: ignore[arg-type]
    assert raw.change is None and raw.lane is Lane.CLUSTER


STORIES = {
    "squares": (squares.squares, []),
    "squares, node lost": (squares.squares, [KILL]),
    "squares, node paused": (squares.squares, ["pause_node node:1 at=0.5 duration=2"]),
    "squares, no retries": (functools.partial(squares.squares, max_retries=0), [KILL]),
    "a crash": (retries.crash_worker, []),
    "retried errors": (retries.parse_order, []),
    "lineage": (lineage.node_loss, []),
    "an actor": (lineage.actor_state, []),
    "a zombie": (functools.partial(zombie.run_story, "none"), []),
}


@pytest.mark.parametrize("name", sorted(STORIES))
def test_the_lanes_are_the_ones_rays_timeline_draws(name):
    """One builder: the reading's lanes on the time axis equal what `from_trace` reads out of
    miniray's Chrome trace of the same run (the lessons' timelines used to be drawn from it)."""
    story, faults = STORIES[name]
    run = sim.run(story, seed=0, faults=faults)
    assert repr(Reading.of_run(run).lanes) == repr(from_trace(miniray.timeline()))


def test_the_lanes_of_every_exercises_fixed_runs_are_the_traces():
    ex = exercise.load("fault03")
    sub = submission.from_file(REPO / "exercises/fault03/reference.py", ex.entry, ex.line_budget)
    for scenario, schedule in ex.tiers[0].runs:
        done = runner.run_schedule(ex, sub, scenario, tuple(schedule))
        assert repr(done.reading.lanes) == repr(from_trace(miniray.timeline()))


def test_questions_about_attempts_nodes_and_actors():
    reading = Reading.of_run(sim.run(squares.squares, seed=0, faults=[KILL]))
    attempts = {a.key: a for a in reading.attempts("square")}
    cut = attempts["square#5/1"]
    assert (cut.how, cut.retry, cut.final, cut.node) == (DIED, True, False, "node:1")
    assert attempts["square#5/2"].how == FINISHED and attempts["square#5/2"].number == 2
    assert reading.given_up() == []
    assert reading.doing("node:1", 1.2).running == ("square#5/1",)
    assert reading.doing("node:2", 1.2).running == ("square#6/1",)
    assert reading.doing("node:1", 2.0).state == "dead"
    assert reading.struck(KILL).time == 1.5
    assert entered(reading.first(Kind.NODE_DIED)) == (Lane.NODES, "node:1", "dead")
    actor = Reading.of_run(sim.run(lineage.actor_state, seed=0))
    assert actor.actor_states()[:2] == ["ALIVE", "RESTARTING"]
    raised = Reading.of_run(sim.run(functools.partial(retries.fetch_quote, max_retries=0), seed=0))
    assert [a.how for a in raised.given_up()] == [RAISED]


def _records(*rows: tuple[str, dict]) -> list[Record]:
    return [Record(i, float(i), kind, fields, step=i) for i, (kind, fields) in enumerate(rows)]


RUN = _records(
    ("task.start", {"task": "pay", "attempt": "pay#1/1", "node": "node:1", "worker": 7}),
    (
        "effect",
        {"attempt": "pay#1/1", "service": "bank", "op": "charge", "key": "k", "outcome": "ok", "token": ""},
    ),
    ("fault", {"fault": "kill_node node:1 at=2.0"}),
    ("node.paused", {"node": "node:1"}),  # what the fault did at once: one event with it
    ("task.fail", {"task": "pay", "attempt": "pay#1/1", "cause": "node_died", "retry": True}),
    ("task.start", {"task": "pay", "attempt": "pay#1/2", "node": "node:2", "worker": 8}),
    (
        "effect",
        {"attempt": "pay#1/2", "service": "bank", "op": "charge", "key": "k", "outcome": "ok", "token": ""},
    ),
    ("task.error", {"task": "pay", "attempt": "pay#1/2", "error": "KeyError", "retry": False}),
    ("object.free", {"object": "ab", "reason": "out_of_scope"}),
)


@pytest.mark.parametrize(
    ("broken", "index", "at_end"),
    [
        (Broken("charged twice", attempts=("pay#1/1", "pay#1/2")), 5, False),  # the second charge
        (Broken("pay raised KeyError", final=True), 6, False),  # where Ray gave up
        (Broken("watched", at=3), 2, False),  # a record folded into its fault's event: that event
        (Broken("it raised, or so the words say: Error"), 7, True),  # words place nothing
    ],
)
def test_a_violation_is_placed_by_its_data(broken, index, at_end):
    reading = Reading(RUN, ["kill_node node:1 at=2.0"])
    found = moment(reading, Violation("paid-once", broken))
    assert (found.index, found.at_end) == (index, at_end)


def test_a_violation_reads_as_its_pair():
    v = Violation("paid-once", Broken("charged twice", attempts=["pay#1/1"]))
    name, detail = v
    assert (name, detail) == ("paid-once", "charged twice") == v and repr(
        v
    ) == "('paid-once', 'charged twice')"
    assert v.broken.attempts == ("pay#1/1",)
    assert Violation("x", "plain").broken == Broken("plain")


def test_what_is_worth_showing_is_the_tables_columns():
    reading = Reading(RUN, ["kill_node node:1 at=2.0"])
    shown = [r.kind for r in reading.shown()]
    assert "node.paused" not in shown and "object.free" not in shown and "fault" in shown
    assert [reading.records[i].kind for i in reading.unstruck()].count("fault") == 0
    assert [r.kind for r in reading.landmarks(before=2)] == ["task.start", "effect"]
    events = reading.events
    assert len(events) == len(RUN) - 1 and events[2].fault == "kill_node node:1 at=2.0"
    assert ("nodes", "node:1", None) not in events[2].changes
    assert events[-1].noise and not events[-2].noise


def test_a_stream_invariant_breaks_at_the_record_it_watched(tmp_path, monkeypatch):
    import shutil

    folder = tmp_path / "fault00"
    shutil.copytree(REPO / "exercises/fault00", folder)
    checks = folder / "checks.py"
    checks.write_text(
        checks.read_text()
        + '''

@checks.stream_invariant("no-worker-dies", evidence=("a-worker-died",))
def no_worker_dies(record, ctx):
    """No worker process dies."""
    if ctx.reading.first(Kind.WORKER_DIED) is record:
        return Broken(f"worker {record.fields['worker']} died", evidence={"a-worker-died"})
    return None
'''
    )
    monkeypatch.setenv("FAULTLINES_EXERCISES", str(tmp_path))
    ex = exercise.load("fault00")
    sub = submission.from_file(REPO / "exercises/fault00/reference.py", ex.entry, ex.line_budget)
    done = runner.run_schedule(ex, sub, "three-lines", ("crash clean#2/1 step=0",))
    watched = [v for v in done.violations if v[0] == "no-worker-dies"]
    assert watched and watched[0][1] == "worker 10003 died"
    died = done.reading.first(Kind.WORKER_DIED)
    assert watched[0].broken.at == died.index and "a-worker-died" in done.evidence
    assert moment(done.reading, watched[0]).index == next(
        e.index for e in done.reading.events if e.record == died.index
    )
    assert not runner.run_schedule(ex, sub, "three-lines", ()).violations  # no death, nothing broken
    assert grade.grade(ex, sub).tiers[1].failure.invariant == "no-worker-dies"
