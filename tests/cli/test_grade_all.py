"""grade-all's bookkeeping: one row per submission keyed by its path in the class folder, the file
that defines the entry point chosen in a student's folder (or the folder reported as ambiguous),
nothing dropped without a row, and a Gradescope file per key."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlines.cli import classroom

REPO = Path(__file__).resolve().parents[2]
EX05 = REPO / "exercises/fault05"
REFERENCE = (EX05 / "reference.py").read_text()
NO_KEY = (EX05 / "wrong/no_key.py").read_text()


def _class(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _rows(folder: Path) -> dict[str, dict]:
    with open(folder / "graded/summary.csv", newline="") as handle:
        return {r["submission"]: r for r in csv.DictReader(handle)}


def test_the_class_folder_is_read_into_one_row_per_submission(tmp_path):
    _class(
        tmp_path,
        {
            "alice.py": REFERENCE,
            "alice/solution.py": NO_KEY,
            "bob/a.py": REFERENCE,
            "bob/b.py": NO_KEY,
            "cy/helpers.py": "TAX = 0.2\n",
            "cy/main.py": NO_KEY,
            "dan/notes.txt": "no code\n",
            "eve/src/solution.py": REFERENCE,
            "fay/x.py": "def other():\n    pass\n",
            "fay/y.py": "import os\n",
            "readme.txt": "hello\n",
            ".hidden.py": REFERENCE,
            "graded/old/results.json": "{}",
        },
    )
    found = classroom.find(tmp_path, ["process_order"], exclude=[tmp_path / "graded"])
    got = {s.key: (s.path.relative_to(tmp_path).as_posix() if s.path else None, s.problem) for s in found}
    assert got == {
        "alice.py": ("alice.py", ""),
        "alice/solution.py": ("alice/solution.py", ""),
        "bob/": (None, "ambiguous: bob/a.py and bob/b.py each define process_order; not graded"),
        "cy/main.py": ("cy/main.py", ""),
        "dan/": (None, "no .py file in it, not graded"),
        "eve/src/solution.py": ("eve/src/solution.py", ""),
        "fay/": (None, "none of its 2 .py files defines process_order, not graded"),
        "readme.txt": (None, "not a Python file, not graded"),
    }


def test_grade_all_keys_rows_and_results_by_path(tmp_path):
    folder = tmp_path / "class"
    _class(
        folder,
        {
            "alice.py": REFERENCE,
            "alice/solution.py": NO_KEY,
            "bob/a.py": REFERENCE,
            "bob/b.py": NO_KEY,
            "cy/solution.py": "def process_order(:\n",
        },
    )
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "grade-all", "fault05", str(folder), "--jobs", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=os.environ,
    )
    assert result.returncode == 1, result.stderr
    assert "4/4" in result.stderr  # the progress bar's last state
    assert "bob/: ambiguous" in result.stderr  # a row that is not graded is also said
    rows = _rows(folder)
    assert list(rows) == ["alice/solution.py", "alice.py", "bob/", "cy/solution.py"]
    assert rows["alice.py"]["passed"] == "True" and rows["alice.py"]["score"] == "10"
    assert rows["alice/solution.py"]["passed"] == "False"
    assert "charged-at-most-once" in rows["alice/solution.py"]["first_failure"]
    assert rows["bob/"]["status"] == "skipped" and "ambiguous" in rows["bob/"]["first_failure"]
    assert rows["cy/solution.py"]["status"] == "bad-input"
    assert "syntax error" in rows["cy/solution.py"]["first_failure"]
    graded = folder / "graded"
    assert json.loads((graded / "alice.py/results.json").read_text())["score"] == 10
    failing = json.loads((graded / "alice/solution.py/results.json").read_text())
    assert failing["score"] == 0 and {t["status"] for t in failing["tests"]} == {"failed"}
    assert "ambiguous" in json.loads((graded / "bob/results.json").read_text())["output"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_grade_all_is_the_same_with_any_number_of_jobs(tmp_path, jobs):
    folder = tmp_path / "class"
    _class(
        folder, {"a.py": REFERENCE, "b.py": NO_KEY, "c.py": (EX05 / "wrong/check_then_charge.py").read_text()}
    )
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "grade-all", "fault05", str(folder), "--jobs", jobs],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 1, result.stderr
    rows = _rows(folder)
    assert [(k, r["score"]) for k, r in rows.items()] == [("a.py", "10"), ("b.py", "0"), ("c.py", "2")]


def _judges() -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and b"faultlines.cli.judge_process" in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def test_a_judge_lost_mid_grading_is_one_row_and_the_class_goes_on(tmp_path):
    folder = tmp_path / "class"
    _class(
        folder,
        {"0_sleeper.py": "import time\ntime.sleep(3600)\n" + NO_KEY, "a.py": REFERENCE, "b.py": NO_KEY},
    )
    before = set(_judges())
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "faultlines",
            "grade-all",
            "fault05",
            str(folder),
            "--jobs",
            "1",
            "--wall-seconds",
            "60",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killed = []
    try:
        deadline = time.monotonic() + 60
        while not set(_judges()) - before and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # it is grading the sleeper now (the first key), which sleeps in its jail
        for pid in set(_judges()) - before:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        _, err = proc.communicate(timeout=600)
    finally:
        proc.kill()
    assert killed and proc.returncode == 1, (killed, proc.returncode, err[-2000:])
    rows = _rows(folder)
    assert rows["0_sleeper.py"]["status"] == "crashed"
    assert "its judge process ended" in rows["0_sleeper.py"]["first_failure"]
    assert rows["a.py"]["passed"] == "True" and rows["b.py"]["status"] == "graded"


def test_a_link_or_a_special_file_is_a_row_never_graded_as_what_it_points_to(tmp_path):
    """A `.py` that is a symbolic link (to the reference, to another student's file), a student's
    folder that is one, and a FIFO: each is its own row, never graded, in `grade` and `grade-all`."""
    folder = tmp_path / "class"
    _class(folder, {"ada.py": NO_KEY, "bea/solution.py": NO_KEY})
    (folder / "zed.py").symlink_to(EX05 / "reference.py")
    (folder / "cy").mkdir()
    (folder / "cy/solution.py").symlink_to(EX05 / "reference.py")
    (folder / "dee").symlink_to(folder / "bea")
    os.mkfifo(folder / "fifo.py")
    found = {s.key: (s.path, s.problem) for s in classroom.find(folder, ["process_order"], exclude=[])}
    assert found == {
        "ada.py": (folder / "ada.py", ""),
        "bea/solution.py": (folder / "bea/solution.py", ""),
        "cy/solution.py": (None, "a symbolic link, not graded"),
        "dee": (None, "a symbolic link, not graded"),
        "fifo.py": (None, "not a regular file, not graded"),
        "zed.py": (None, "a symbolic link, not graded"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "grade", "fault05", str(folder / "zed.py")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2 and result.stderr.strip().endswith("zed.py: a symbolic link, not graded")
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "grade-all", "fault05", str(folder), "--jobs", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 1, result.stderr
    rows = _rows(folder)
    assert {k: (r["status"], r["passed"]) for k, r in rows.items()} == {
        "ada.py": ("graded", "False"),
        "bea/solution.py": ("graded", "False"),
        "cy/solution.py": ("skipped", "False"),
        "dee": ("skipped", "False"),
        "fifo.py": ("skipped", "False"),
        "zed.py": ("skipped", "False"),
    }
    assert rows["zed.py"]["first_failure"] == "a symbolic link, not graded"
