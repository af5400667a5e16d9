"""The hostile corpus (tests/cli/hostile/): every submission there fails or is refused (exit 2),
with no hang, no process left behind, no changed file and no connection out.

Each runs `python -m faultlines grade` against a scratch copy of the repository (exercises,
faultlines, miniray, the hidden-tier fixture with a note planted in it), with a secret in the
grader's environment and a TCP server listening on this machine. One more test grades a class of
them with grade-all: each failure is one row, and the class is graded. What each case of the
second batch (aimed at the judge itself) must not achieve is checked case by case in
test_hostile_judge.py.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import pytest
from hostile_support import (
    CORPUS,
    MARKER,
    NOTE,
    REPO,
    TOKEN,
    cli,
    hashes,
    header,
    leftovers,
    prepare,
    stale_cgroups,
)

from faultlines.sandbox import machine

WALL_S = "8"  # the wall-clock limit of a grading here
# The cases that block until the wall-clock limit ends them (nothing else can): each costs its
# limit, so they get a shorter one. Containment, not the limit's length, is what they test.
BLOCKERS = {"sleeping and blocking", "signals from outside"}
BLOCKER_WALL_S = "3"
CLASSES = {
    "forging the report",
    "patching the judge",
    "reading secrets",
    "escaping (processes that outlive the grade)",
    "the network",
    "writing files",
    "killing the parent",
    "sleeping and blocking",
    "huge output",
    "resource limits",
    # The second batch: the judge and the link, one student and the next.
    "calling the judge's functions",
    "paths the judge opens",
    "breaking the report's text",
    "the judge's time and memory",
    "files that are not files",
    "signals from outside",
}

pytestmark = pytest.mark.skipif(
    not machine.probe().jailed, reason=f"needs the grader's sandbox: {machine.probe().describe()}"
)

CASES = sorted(p for p in CORPUS.glob("*.py"))


def test_the_corpus_covers_every_class():
    assert {header(p, "class") for p in CASES} == CLASSES
    assert all(header(p, "exercise") for p in CASES)
    assert len(CASES) >= 51


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_a_hostile_submission_is_contained(case, scratch, listener, tmp_path):
    port, accepted = listener
    before = hashes(scratch)
    path = prepare(case, scratch, port, tmp_path)
    exercise = header(case, "exercise")
    assert exercise is not None
    wall = BLOCKER_WALL_S if header(case, "class") in BLOCKERS else WALL_S
    started = time.monotonic()
    result, _ = cli(
        scratch,
        "grade",
        exercise,
        str(path),
        "--json",
        "--hidden",
        str(scratch / "hidden"),
        "--wall-seconds",
        wall,
    )
    took = time.monotonic() - started
    assert result.returncode in (1, 2), (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    if result.returncode == 1:
        data = json.loads(result.stdout)
        assert data["passed"] is False and data["score"] < data["max_score"], data.get("error")
    else:
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.endswith("\n"), result.stderr
    assert took < float(wall) + 60, f"took {took:.0f} s"
    time.sleep(0.3)  # a process that escaped would still be alive now
    assert leftovers() == []
    assert hashes(scratch) == before
    assert not Path(f"/tmp/{MARKER}").exists() and not Path(f"/tmp/{MARKER}-sh").exists()
    assert accepted == []
    assert NOTE not in result.stdout + result.stderr
    assert TOKEN not in result.stdout + result.stderr
    assert stale_cgroups() == []


def test_huge_output_leaves_the_grader_small(scratch, listener, tmp_path):
    for name in ("output_print_100mb.py", "output_fds_100mb.py"):
        path = prepare(CORPUS / name, scratch, listener[0], tmp_path)
        result, rss_kb = cli(scratch, "grade", "fault05", str(path), "--json")
        assert result.returncode in (1, 2)  # printing at import runs past the import budget: exit 2
        assert len(result.stdout) < 1 << 20 and len(result.stderr) < 1 << 20
        assert 0 < rss_kb < 400 * 1024, f"{name}: {rss_kb} KB"


def test_grade_all_grades_the_class_whatever_one_submission_does(scratch, listener, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("kill_parent.py", "kill_everyone.py", "block_sleep_at_import.py", "forge_exit_early.py"):
        prepare(CORPUS / name, scratch, listener[0], folder)
    (folder / "ada.py").write_text((REPO / "exercises/fault05/reference.py").read_text())
    result, _ = cli(
        scratch, "grade-all", "fault05", str(folder), "--jobs", "2", "--wall-seconds", "15"
    )  # a reference under load fits in 15 s
    assert result.returncode == 1, result.stderr[-2000:]
    with open(folder / "graded/summary.csv", newline="") as handle:
        rows = {r["submission"]: r for r in csv.DictReader(handle)}
    assert set(rows) == {
        "ada.py",
        "kill_parent.py",
        "kill_everyone.py",
        "block_sleep_at_import.py",
        "forge_exit_early.py",
    }
    assert rows["ada.py"]["passed"] == "True"
    assert all(r["passed"] == "False" for k, r in rows.items() if k != "ada.py")
    assert rows["block_sleep_at_import.py"]["status"] == "crashed"
    assert "crashed the grader's sandbox" in rows["block_sleep_at_import.py"]["first_failure"]
    assert "wall-clock" in rows["block_sleep_at_import.py"]["first_failure"]
    assert leftovers() == []
