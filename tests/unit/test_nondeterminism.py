"""Nondeterminism is a verdict: a submission whose two runs of one schedule differ fails the tier
with the invariant `deterministic`, and the report names what differed from the runs' own
records (faultlines/reading/differ.py), never from the source. The solutions under
tests/fixtures/nondeterministic/ are fault05 answers written for this, each reading something
miniray does not replay in its own way (uuid4, random without a seed, time.time_ns, datetime)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from grader_support import grade_file, grade_source

from faultlines.classmap import signature
from faultlines.grader import exercise, grade, render_html, render_json, render_text, submission
from faultlines.grader.determinism import DETERMINISTIC, compare
from faultlines.reading.differ import first_difference
from miniray import sim

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures/nondeterministic"
REFERENCE = FIXTURES.parents[2] / "exercises/fault05/reference.py"
KEYED = ["uuid_key.py", "rand_key.py", "time_key.py", "datetime_key.py", "rand_unseeded_choice.py"]


@pytest.mark.parametrize("name", KEYED)
def test_a_key_that_changes_from_run_to_run_fails_the_first_tier_as_deterministic(name):
    report = grade_file("fault05", FIXTURES / name)
    failure = report.first_failure
    assert not report.passed and report.score == 0 and not report.tiers[0].passed
    assert failure is not None and failure.invariant == DETERMINISTIC
    # What differed, from the first record that differs: the gateway's charge, its key field.
    assert failure.nondeterminism == "api.charge key"
    assert failure.hint is not None and failure.hint.id == "nondeterministic-api-charge-key"
    assert failure.hint.known and "api.charge" in failure.hint.levels[0]
    assert failure.schedule == [] and "differed" in failure.detail
    # The detail quotes the key the first run's timeline shows, so it came from the run.
    shown = [line for line in failure.timeline if "api.charge order 17" in line][0]
    assert shown.split("idempotency key ")[1].split(" ->")[0] in failure.detail


def test_a_run_that_passes_but_does_not_replay_is_caught_and_names_the_write_that_differed():
    report = grade_file("fault05", FIXTURES / "uuid_note_passes.py")
    failure = report.first_failure
    assert not report.passed and failure is not None and failure.invariant == DETERMINISTIC
    assert failure.nondeterminism == "api.mark_paid key" and "order note-" in failure.detail
    assert [t.passed for t in report.tiers] == [False, False, False]


def test_the_renderers_gradescope_and_the_signature_agree_it_is_a_failure():
    report = grade_file("fault05", FIXTURES / "uuid_key.py")
    text = render_text.render(report)
    assert "NOT YET, 0/10" in text and "broken invariant: deterministic" in text
    html = render_html.render(report)
    assert 'data-passed="false"' in html and 'data-invariant="deterministic"' in html
    scope = render_json.gradescope(report)
    assert scope["score"] == 0 and [t["status"] for t in scope["tests"]] == ["failed"] * 3
    assert json.loads(render_json.render(report))["passed"] is False
    sig = signature.of_report(report)  # a verdict: grouped, on what differed
    assert sig is not None and sig.invariant == DETERMINISTIC
    assert sig.hint == "nondeterministic-api-charge-key"


def test_a_deterministic_submission_gets_no_such_verdict_and_the_check_costs_one_run_per_first_schedule():
    source = REFERENCE.read_text()
    assert grade_source("fault05", source).passed
    ex = exercise.load("fault05")
    runs = grade.Runs(ex, submission.from_source(source, "r.py", ex.entry, ex.line_budget))
    grade.grade(ex, runs.sub, runs=runs)
    # Every tier of fault05 starts from the clean two-orders run: it ran twice, once journaled.
    assert list(runs.reported) == [("two-orders", ())]


def _records(*lines: tuple[str, dict]) -> list[sim.Record]:
    return [sim.Record(i, 0.5 * i, kind, fields) for i, (kind, fields) in enumerate(lines)]


def test_the_first_difference_is_read_from_the_records():
    start = (sim.Kind.TASK_START, {"attempt": "f#1/1", "node": "node:1"})
    a = _records(start, (sim.Kind.EFFECT, {"attempt": "f#1/1", "service": "db", "op": "put", "key": "k1"}))
    b = _records(start, (sim.Kind.EFFECT, {"attempt": "f#1/1", "service": "db", "op": "put", "key": "k2"}))
    diff = first_difference(a, b)
    assert diff is not None and (diff.index, diff.what, diff.who) == (1, "db.put key", "f#1/1")
    assert "'k1' in one run and key 'k2'" in diff.sentence
    shorter = first_difference(a, a[:1])
    assert shorter is not None and shorter.what == "db.put (in one run only)"
    assert first_difference(a, list(a)) is None


def test_two_runs_whose_records_agree_and_verdicts_differ_say_so():
    ex = exercise.load("fault05")
    sub = submission.from_source(REFERENCE.read_text(), "r.py", ex.entry, ex.line_budget)
    one, two = grade.Runs(ex, sub).fresh("two-orders", ()), grade.Runs(ex, sub).fresh("two-orders", ())
    assert compare(one, two) is None
    two.trace += "\n(another verdict)"
    diff = compare(one, two)
    assert diff is not None and diff.what == "the verdict"


def test_runs_that_differ_only_in_when_an_object_was_freed_are_deterministic():
    """When Python frees an object held in a reference cycle is the garbage collector's choice:
    correct code that leaves such a cycle must not fail `deterministic` for it (the first fault01
    scenario written for issue 30 did, with nothing wrong in the learner's code)."""
    ex = exercise.load("fault05")
    sub = submission.from_source(REFERENCE.read_text(), "r.py", ex.entry, ex.line_budget)
    one = grade.Runs(ex, sub).fresh("two-orders", ())
    records = one.records
    freed = sim.Record(len(records), records[-1].time, sim.Kind.OBJECT_FREE, {"object": "obj-1"})
    log, _, rest = one.trace.partition("\n--effects--\n")
    two = SimpleNamespace(
        records=[records[0], freed, *records[1:]], trace=f"{log}\n{freed.line()}\n--effects--\n{rest}"
    )
    assert one.trace != two.trace and compare(one, two) is None
    # A record a learner sees, in one run only, is still a difference.
    start = sim.Record(len(records) + 1, 0.0, sim.Kind.TASK_START, {"attempt": "x#1/1", "node": "node:1"})
    three = SimpleNamespace(records=[*records, start], trace=two.trace + "\n" + start.line())
    diff = compare(one, three)
    assert diff is not None and diff.what == "task.start (in one run only)"
