"""`grade-all ... --report OUT/`: the class map written by the real command, through the grader's
sandbox like any grade-all: OUT/report.html, OUT/groups.csv and a replay page per group, for one
exercise, for `all` (one folder per exercise, a per-student view across them) and for a folder
of learners' progress files (sources graded again, signatures alone shown unverified, version 1
still read)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WRONG05 = REPO / "exercises/fault05/wrong"
NO_KEY = (WRONG05 / "no_key.py").read_text()
RENAMED_NO_KEY = (
    "def process_order(gateway_api, oid, total):\n"
    "    # same mistake, other names\n"
    "    receipt = gateway_api.charge(oid, total)\n"
    "    gateway_api.mark_paid(oid, receipt)\n"
)
SKIPS_AN_ORDER = (  # a mistake no catalogue entry names: an unexplained group
    "def process_order(api, order_id, amount):\n"
    "    if order_id == 18:\n"
    "        return\n"
    '    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=f"order-{order_id}"))\n'
)


def _class(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _grade_all(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "faultlines", "grade-all", *args, "--jobs", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _groups(out: Path) -> tuple[list[str], list[dict]]:
    with open(out / "groups.csv", newline="") as handle:
        header = handle.readline().strip().split(",")
        handle.seek(0)
        return header, list(csv.DictReader(handle))


def test_one_exercise_report_groups_the_same_mistake_and_links_a_replay_for_each(tmp_path):
    folder, out = tmp_path / "class", tmp_path / "map"
    _class(
        folder,
        {
            "alice.py": NO_KEY,
            "bob/solution.py": RENAMED_NO_KEY,
            "cy.py": (WRONG05 / "check_then_charge.py").read_text(),
            "dan.py": SKIPS_AN_ORDER,
            "eve.py": (REPO / "exercises/fault05/reference.py").read_text(),
            "fay.py": "def process_order(:\n",
        },
    )
    result = _grade_all("fault05", str(folder), "--report", str(out))
    assert result.returncode == 1, result.stderr
    assert "class map: 3 groups, 3 of 4 failures in named groups, 3 replay pages" in result.stdout
    header, rows = _groups(out)
    assert header == ["exercise", "invariant", "schedule", "hint", "count", "submissions"]
    assert [(r["count"], r["hint"], r["submissions"]) for r in rows] == [
        ("2", "retry-repeats-the-charge", "alice.py;bob/solution.py"),
        ("1", "check-then-act", "cy.py"),
        ("1", "", "dan.py"),
    ]
    assert rows[0]["schedule"] == "crash process_order#1/1 after api.charge"
    assert rows[0]["invariant"] == "charged-at-most-once" and rows[2]["invariant"] == "every-order-paid"
    html = (out / "report.html").read_text()
    for n in (1, 2, 3):
        page = out / f"replays/{n}.html"
        assert f'href="replays/{n}.html"' in html and page.is_file()
        text = page.read_text()  # the debugger's page, or the run as the grader reported it
        assert 'class="fl-debugger"' in text or "as the grader reported it" in text
    assert "Unexplained failures (1)" in html and "[[hint]]" in html
    assert "fay.py" in html and "syntax error" in html  # no verdict, said, never grouped
    assert (folder / "graded/summary.csv").is_file()  # grade-all's own files, as without --report


def test_all_maps_every_exercise_folder_with_a_row_per_student(tmp_path):
    folder, out = tmp_path / "class", tmp_path / "map"
    _class(
        folder,
        {
            "fault05/alice.py": NO_KEY,
            "fault05/bob.py": RENAMED_NO_KEY,
            "fault00/alice.py": (REPO / "exercises/fault00/reference.py").read_text(),
            "fault00/bob/pipeline.py": (REPO / "exercises/fault00/starter.py").read_text(),
            "notes/readme.txt": "not an exercise folder\n",
        },
    )
    result = _grade_all("all", str(folder), "--report", str(out))
    assert result.returncode == 1, result.stderr
    assert (folder / "graded/fault00/summary.csv").is_file() and (
        folder / "graded/fault05/summary.csv"
    ).is_file()
    _, rows = _groups(out)
    assert {(r["exercise"], r["submissions"]) for r in rows} == {
        ("fault05", "fault05/alice.py;fault05/bob.py"),
        ("fault00", "fault00/bob/pipeline.py"),
    }
    html = (out / "report.html").read_text()
    assert '<th scope="col">fault00</th><th scope="col">fault05</th>' in html
    assert (
        '<th scope="row">alice</th><td><span class="ok">passed</span></td><td><span class="bad">failed</span>'
        in html
    )
    assert '<th scope="row">bob</th><td><span class="bad">failed</span>' in html


def test_a_folder_of_progress_files_is_regraded_and_claims_are_unverified(tmp_path):
    folder, out = tmp_path / "class", tmp_path / "map"
    folder.mkdir()
    claim = {
        "exercise": "fault05", "version": 1, "invariant": "charged-at-most-once",
        "schedule": ["crash process_order#1/1 step=1"], "hint": "retry-repeats-the-charge", "token": "", "at": "",
    }  # fmt: skip
    files = {
        "alice.json": {"format": "fault-lines-progress", "version": 2, "exercises": {
            "fault05": {"status": "tried", "version": 1, "source": NO_KEY, "last_failure": claim}}},
        "bob.json": {"format": "fault-lines-progress", "version": 2, "exercises": {
            "fault05": {"status": "tried", "version": 1, "source": "", "last_failure": claim}}},
        "cy.json": {"exercises": {"fault05": {"status": "passed", "version": 1, "code": "ab12", "at": ""}}},
    }  # fmt: skip
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data))
    (folder / "dan.json").write_text("{broken")
    result = _grade_all("fault05", str(folder), "--report", str(out))
    assert result.returncode == 1, result.stderr
    assert "dan.json: not JSON" in result.stderr
    _, rows = _groups(out)
    assert [(r["submissions"], r["hint"]) for r in rows] == [("alice.json", "retry-repeats-the-charge")]
    assert (out / "sources/alice/fault05.py").read_text() == NO_KEY
    html = (out / "report.html").read_text()
    assert "Unverified (2)" in html and "bob.json" in html and "cy.json" in html
    assert "progress file version 1: passed on v1" in html and "dan.json: not JSON" in html


def test_bad_input_is_one_line_and_exit_status_2(tmp_path):
    (tmp_path / "empty").mkdir()
    result = _grade_all("all", str(tmp_path / "empty"), "--report", str(tmp_path / "map"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "no exercise folders" in result.stderr
    (tmp_path / "class").mkdir()
    (tmp_path / "class/a.py").write_text(NO_KEY)
    (tmp_path / "taken").write_text("a file, not a folder")
    result = _grade_all("fault05", str(tmp_path / "class"), "--report", str(tmp_path / "taken"))
    assert (
        result.returncode == 2
        and "--report" in result.stderr
        and len(result.stderr.strip().splitlines()) == 1
    )


NONDETERMINISTIC = REPO / "tests/fixtures/nondeterministic"


def test_nondeterministic_submissions_fail_in_every_file_and_group_by_what_differed(tmp_path):
    folder, out = tmp_path / "class", tmp_path / "map"
    _class(
        folder,
        {
            "gus.py": (NONDETERMINISTIC / "uuid_key.py").read_text(),
            "jo.py": (NONDETERMINISTIC / "rand_key.py").read_text(),
            "kim.py": (NONDETERMINISTIC / "uuid_note_passes.py").read_text(),
            "eve.py": (REPO / "exercises/fault05/reference.py").read_text(),
        },
    )
    result = _grade_all("fault05", str(folder), "--report", str(out))
    assert result.returncode == 1, result.stderr
    with open(folder / "graded/summary.csv", newline="") as handle:
        rows = {r["submission"]: r for r in csv.DictReader(handle)}
    for key in ("gus.py", "jo.py", "kim.py"):
        assert rows[key]["passed"] == "False" and rows[key]["score"] == "0", rows[key]
        assert rows[key]["status"] == "graded" and "deterministic" in rows[key]["first_failure"]
        scope = json.loads((folder / "graded" / key / "results.json").read_text())
        assert scope["score"] == 0 and scope["tests"][0]["status"] == "failed"
    assert rows["eve.py"]["passed"] == "True"
    _, groups = _groups(out)
    assert [(g["invariant"], g["hint"], g["submissions"]) for g in groups] == [
        ("deterministic", "nondeterministic-api-charge-key", "gus.py;jo.py"),
        ("deterministic", "nondeterministic-api-mark-paid-key", "kim.py"),
    ]
    assert "3 of 3 failures in named groups" in result.stdout
