"""Every exercise folder, found by listing them: the reference passes every tier, every known
wrong solution fails with the hint it must trigger, the starter fails helpfully, and each run's
verdicts and traces match the recorded ones (so CPython and Pyodide, which both run this file,
agree). Re-record after changing an exercise: FAULTLINES_UPDATE_TRACES=1 pytest this file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from grader_support import fingerprint, grade_file

from faultlines.grader import exercise, grade, submission, tokens
from faultlines.grader.budgets import Counter
from faultlines.grader.runner import BUDGET, NO_ERROR, PROGRESS, run_schedule

IDS = exercise.exercise_ids()
TRACES = Path(__file__).with_name("exercise_traces.json")
UPDATE = os.environ.get("FAULTLINES_UPDATE_TRACES") == "1"
_recorded = json.loads(TRACES.read_text()) if TRACES.exists() else {}


def _wrong_cases() -> list[tuple[str, str, str]]:
    cases = []
    for ex_id in IDS:
        for wrong in exercise.load(ex_id).wrong_solutions():
            cases.append((ex_id, wrong.path.name, wrong.hint))
    return cases


def _right_cases() -> list[tuple[str, str]]:
    return [(ex_id, path.name) for ex_id in IDS for path in exercise.load(ex_id).right_solutions()]


def _matches_recording(key: str, got: dict) -> None:
    if UPDATE:
        _recorded[key] = got
        TRACES.write_text(json.dumps(_recorded, indent=1, sort_keys=True) + "\n")
        return
    assert key in _recorded, f"no recorded trace for {key}: run with FAULTLINES_UPDATE_TRACES=1"
    assert got == _recorded[key]


def test_the_exercises_are_found_by_their_folders():
    assert {"fault00", "fault01", "fault05"} <= set(IDS)


@pytest.mark.parametrize("ex_id", IDS)
def test_reference_passes_every_tier(ex_id):
    ex = exercise.load(ex_id)
    report = grade_file(ex_id, ex.reference_path)
    assert [t.name for t in report.tiers if not t.passed] == [], report.first_failure
    assert report.score == report.max_score > 0
    assert all(t.schedules > 0 for t in report.tiers)
    _matches_recording(f"{ex_id}/reference.py", fingerprint(report))


@pytest.mark.parametrize("ex_id", IDS)
def test_starter_fails_with_a_helpful_message(ex_id):
    ex = exercise.load(ex_id)
    report = grade_file(ex_id, ex.folder / "starter.py")
    failure = report.first_failure
    assert not report.passed and failure is not None
    assert failure.hint is not None and failure.hint.known, (
        f"the starter's failure ({failure.invariant}) matches no hint"
    )
    assert failure.invariant in failure.detail or failure.detail  # a concrete detail
    _matches_recording(f"{ex_id}/starter.py", fingerprint(report))


@pytest.mark.parametrize(("ex_id", "name", "hint"), _wrong_cases())
def test_wrong_solution_fails_with_its_hint(ex_id, name, hint):
    ex = exercise.load(ex_id)
    report = grade_file(ex_id, ex.folder / "wrong" / name)
    failure = report.first_failure
    assert not report.passed and failure is not None
    assert failure.hint is not None and failure.hint.id == hint, (failure.invariant, failure.detail)
    assert failure.invariant in ex.checks.invariants or failure.invariant in ("progress", "step-budget")
    assert failure.nondeterminism is None
    # Its replay token reproduces the failure it was issued for: the same verdict, the same run.
    sub = submission.from_file(ex.folder / "wrong" / name, ex.entry, ex.line_budget)
    again = grade.replay(ex, sub, tokens.decode(failure.token))
    assert again.violations[0] == (failure.invariant, failure.detail) and again.log == failure.timeline
    _matches_recording(f"{ex_id}/wrong/{name}", fingerprint(report))


@pytest.mark.parametrize(("ex_id", "name"), _right_cases())
def test_a_correct_solution_written_differently_passes(ex_id, name):
    ex = exercise.load(ex_id)
    report = grade_file(ex_id, ex.folder / "right" / name)
    assert report.passed, report.first_failure


@pytest.mark.parametrize("ex_id", IDS)
def test_line_budget_is_at_least_eight_times_the_references_need(ex_id):
    ex = exercise.load(ex_id)
    sub = submission.from_file(ex.reference_path, ex.entry, ex.line_budget)
    need = 0
    for tier in ex.tiers:
        for scenario, schedule in tier.runs or [(tier.scenario, ())]:
            counter = Counter(ex.line_budget)
            run_schedule(ex, sub, scenario, schedule, counter)
            need = max(need, counter.lines)
    assert need > 0
    # Generous, so plain correct code written another way (a loop, a search) never runs out; the
    # budget only has to stop an endless loop, which fails the first run it is in.
    assert ex.line_budget >= 8 * need, f"reference needs {need} statements per run"


@pytest.mark.parametrize("ex_id", IDS)
def test_every_tier_has_points_and_every_hint_names_a_real_invariant(ex_id):
    ex = exercise.load(ex_id)
    assert ex.tiers and all(t.points > 0 for t in ex.tiers)
    known = set(ex.checks.invariants) | {PROGRESS, BUDGET, NO_ERROR}
    for hint in ex.hints:
        assert set(hint.invariant.split("|")) <= known, hint.id
        assert hint.levels
        assert hint.match or hint.evidence, f"{hint.id} rests on no evidence from the run"
    names = {w.hint for w in ex.wrong_solutions()}
    assert names <= {h.id for h in ex.hints}


@pytest.mark.parametrize("ex_id", IDS)
def test_every_invariant_has_a_plain_words_explanation(ex_id):
    # A failure no catalogued mistake matches still gets help: the invariant, in plain words.
    ex = exercise.load(ex_id)
    for name in [*ex.checks.invariants, PROGRESS, BUDGET, NO_ERROR]:
        text = ex.explain(name)
        assert len(text.split()) >= 6 and text.endswith("."), (name, text)


@pytest.mark.parametrize("ex_id", IDS)
def test_each_exercise_is_tested_with_three_correct_variants_and_six_wrong_solutions(ex_id):
    # Written apart from the reference, as a learner would: right/ differ from it in structure and
    # idiom, wrong/ come from the mistakes the exercise's lesson warns about.
    ex = exercise.load(ex_id)
    assert len(ex.right_solutions()) >= 3
    assert len(ex.wrong_solutions()) >= 6
