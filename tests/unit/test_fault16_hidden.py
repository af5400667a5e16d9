"""fault16's hidden tiers (tests/fixtures/hidden/fault16/tiers.toml, the form an instructor keeps
outside the repository): a crash and a node loss in one run, and longer random schedules. The
reference and a right solution written apart from it survive them; a wrong solution that the
public tiers fail still fails there, with the same invariant."""

from __future__ import annotations

import pytest
from grader_support import REPO

from faultlines.grader import exercise, grade, submission

HIDDEN = (REPO / "tests/fixtures/hidden/fault16/tiers.toml").read_text()


def _hidden_tiers(path):
    ex = exercise.load("fault16", hidden=HIDDEN)
    report = grade.grade(ex, submission.from_file(path, ex.entry, ex.line_budget))
    return [t for t in report.tiers if t.hidden]


@pytest.mark.parametrize("name", ["reference.py", "right/rng_argument.py"])
def test_a_replay_safe_pipeline_survives_a_crash_and_a_node_loss_together(name):
    tiers = _hidden_tiers(REPO / "exercises/fault16" / name)
    assert len(tiers) == 2 and all(t.passed and t.schedules > 1 for t in tiers), tiers


def test_a_stream_of_what_has_arrived_fails_the_hidden_search_too():
    search = _hidden_tiers(REPO / "exercises/fault16/wrong/arrived_stream.py")[0]
    assert not search.passed and search.failure.invariant == "stream-complete"
