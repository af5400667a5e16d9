"""The exercises' hidden tiers (tests/fixtures/hidden/<id>/tiers.toml, the form an instructor
keeps outside the repository): several faults in one run and longer random schedules. The
reference and a right solution written apart from it survive them; a wrong solution that the
public tiers fail still fails there, with the same invariant.

fault14: a notice and a crash together, and random schedules that lose a node with no notice.
fault15: a lost node before the cancel, and random crashes with forced cancels.
fault16: a crash and a node loss together, so a retry's items and a rebuild's meet in one run."""

from __future__ import annotations

import pytest
from grader_support import REPO

from faultlines.grader import exercise, grade, submission

HIDDEN = REPO / "tests/fixtures/hidden"
PASSING = [
    ("fault14", "reference.py"),
    ("fault14", "right/range_with_a_flag.py"),
    ("fault15", "reference.py"),
    ("fault15", "right/plan_then_book.py"),
    ("fault16", "reference.py"),
    ("fault16", "right/rng_argument.py"),
]
FAILING = [  # (exercise, a solution the public tiers fail, the invariant its hidden search breaks)
    ("fault14", "starter.py", "loses-nothing-to-a-notice"),
    ("fault15", "wrong/leg_by_leg.py", "all-or-nothing"),
    ("fault16", "wrong/arrived_stream.py", "stream-complete"),
]


def _hidden_tiers(exercise_id: str, name: str) -> list:
    ex = exercise.load(exercise_id, hidden=(HIDDEN / exercise_id / "tiers.toml").read_text())
    sub = submission.from_file(REPO / "exercises" / exercise_id / name, ex.entry, ex.line_budget)
    return [t for t in grade.grade(ex, sub).tiers if t.hidden]


def test_every_exercise_after_the_capstone_has_hidden_tiers_checked_here():
    # fault05's hidden tiers are the CLI's and the sandbox's fixture (tests/cli, test_grader.py).
    assert {p.parent.name for p in HIDDEN.glob("*/tiers.toml")} - {"fault05"} == {e for e, _ in PASSING}


@pytest.mark.parametrize(("exercise_id", "name"), PASSING)
def test_right_code_survives_the_hidden_tiers(exercise_id, name):
    tiers = _hidden_tiers(exercise_id, name)
    assert len(tiers) == 2 and all(t.passed and t.schedules > 1 for t in tiers), tiers


@pytest.mark.parametrize(("exercise_id", "name", "invariant"), FAILING)
def test_a_wrong_solution_fails_the_hidden_search_too(exercise_id, name, invariant):
    search = _hidden_tiers(exercise_id, name)[0]
    assert not search.passed and search.failure.invariant == invariant
