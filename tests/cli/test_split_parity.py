"""The same verdicts with the learner's code in a jail as in one process, and so as in Pyodide.

tests/unit/exercise_traces.json records, for every reference, starter and catalogued wrong
solution, the verdicts, schedules, hints and a hash of the failing run's timeline and effects.
tests/unit/test_exercises.py checks in-process CPython against it, and tests/pyodide runs that
same file in Pyodide: here every one is graded through the jail (faultlines.sandbox) and must
give the recorded fingerprint too. Submissions that keep state in module globals (each simulated
worker process has its own copy, kept in the jail) are compared with in-process grading directly,
and grade-all's CSV is compared with --unsafe-local's.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultlines.grader import exercise, submission
from faultlines.grader import grade as grader
from faultlines.sandbox import machine, run

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests/unit"))
from grader_support import fingerprint  # noqa: E402  (tests/unit's helper, not a package)

RECORDED = json.loads((REPO / "tests/unit/exercise_traces.json").read_text())
MEMORY_CASES = sorted((REPO / "tests/cli/worker_memory").glob("*.py"))


def _replay(token: str) -> str:
    return f"replay {token}"


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_a_recorded_verdict_is_the_same_through_the_jail(key):
    ex_id, rest = key.split("/", 1)
    path = REPO / "exercises" / ex_id / rest
    jailed = run.grade_file(ex_id, path, plan=machine.probe(), replay_call=_replay).report
    assert jailed.error is None, jailed.error
    assert fingerprint(jailed) == RECORDED[key]
    # And the whole report, hints, details and each move's words included, as in one process.
    ex = exercise.load(ex_id)
    in_process = grader.grade(ex, submission.from_file(path, ex.entry, ex.line_budget), replay_call=_replay)
    assert jailed.to_dict() == in_process.to_dict()


@pytest.mark.parametrize("path", MEMORY_CASES, ids=[p.stem for p in MEMORY_CASES])
def test_worker_memory_is_each_process_own_through_the_jail_too(path):
    ex_id = path.name.split("_")[0]
    ex = exercise.load(ex_id)
    in_process = grader.grade(ex, submission.from_file(path, ex.entry, ex.line_budget))
    jailed = run.grade_file(ex_id, path, plan=machine.probe()).report
    assert jailed.error is None, jailed.error
    assert fingerprint(jailed) == fingerprint(in_process)


@pytest.mark.parametrize("ex_id", ["fault02", "fault05"])
def test_grade_all_writes_the_same_csv_jailed_as_unsafe_local(tmp_path, ex_id):
    ex = exercise.load(ex_id)
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(ex.reference_path, folder / "reference.py")
    for wrong in ex.wrong_solutions():
        shutil.copy(wrong.path, folder / wrong.path.name)
    tables = []
    for mode in ([], ["--unsafe-local"]):
        out = tmp_path / f"out{len(tables)}"
        result = subprocess.run(
            [sys.executable, "-m", "faultlines", "grade-all", ex_id, str(folder), "--out", str(out), *mode],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 1, result.stderr[-2000:]
        with open(out / "summary.csv", newline="") as handle:
            tables.append(list(csv.DictReader(handle)))
    assert tables[0] == tables[1]
    assert {r["submission"]: r["passed"] for r in tables[0]}["reference.py"] == "True"
