"""The corpus's second batch, aimed at the judge and at the next student, case by case: what each
would have achieved is what its test says did not happen.

- calling the judge's functions (fault kinds, a dataclass on the enums, trace.finish's write,
  the warning that printed /proc/self/environ): refused at the first forged name, and the next
  students of the same grade-all are graded as they are without it;
- a path the judge opens (`ray.timeline(filename=...)`): written in the jail, never outside it;
- text that breaks reports (lone surrogates, terminal escapes): escaped, the CSV complete;
- the judge's time and memory (colliding set members, type names, stand-ins, exception classes):
  refused within seconds, the grader small;
- a file that is a link: refused (test_hostile.py; grade-all's rows in test_grade_all.py);
- children forked at import: contained, every time;
- SIGTERM while a body runs and SIGKILL from outside: said as what they are.
"""

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
from hostile_support import (
    CORPUS,
    MARKER,
    REPO,
    TOKEN,
    cli,
    finish_cli,
    hashes,
    leftovers,
    marked,
    prepare,
    start_cli,
)

from faultlines.sandbox import machine

pytestmark = pytest.mark.skipif(
    not machine.probe().jailed, reason=f"needs the grader's sandbox: {machine.probe().describe()}"
)
REFUSED = "none of miniray's objects a learner may hold"
UNSAFE_CHARS = ("\x1b", "\r", "\x07", "\x08", "\u202e")


def _rows(path: Path) -> dict[str, dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return {r["submission"]: r for r in csv.DictReader(handle)}


def _class_folder(root: Path, scratch: Path, port: int, hostile: bool) -> Path:
    """fault02 and fault05 classmates (the references and catalogued wrong solutions), and with
    `hostile` the second batch's judge attacks graded first in each folder."""
    folder = root / ("with" if hostile else "without")
    for ex, others in {
        "fault02": ["no_restore.py", "class_attribute.py", "one_restart.py"],
        "fault05": ["no_key.py", "check_then_charge.py"],
    }.items():
        (folder / ex).mkdir(parents=True)
        (folder / ex / "reference.py").write_text((REPO / f"exercises/{ex}/reference.py").read_text())
        for name in others:
            (folder / ex / name).write_text((REPO / f"exercises/{ex}/wrong/{name}").read_text())
    if hostile:
        prepare(CORPUS / "judge_fault_kinds.py", scratch, port, folder / "fault02", "0_fault_kinds.py")
        for i, name in enumerate(
            ("judge_dataclass_on_enums.py", "judge_trace_finish_writes.py", "judge_warning_leaks_environ.py")
        ):
            prepare(CORPUS / name, scratch, port, folder / "fault05", f"{i}_{name}")
    return folder


def test_a_submission_that_reaches_for_the_judge_changes_nobody_elses_grade(scratch, listener, tmp_path):
    """One judge template per exercise (--jobs 1) grades the attacks first, then their classmates:
    each attack is refused at its first forged name, and every classmate's row is the row it gets
    in a class without the attacks."""
    before = hashes(scratch)
    tables = {}
    for hostile in (True, False):
        folder = _class_folder(tmp_path, scratch, listener[0], hostile)
        result, _ = cli(
            scratch, "grade-all", "all", str(folder), "--jobs", "1", "--hidden", str(scratch / "hidden")
        )
        assert result.returncode == 1, result.stderr[-2000:]
        assert TOKEN not in result.stdout + result.stderr
        assert str(scratch / "hidden") not in result.stdout + result.stderr
        tables[hostile] = {ex: _rows(folder / "graded" / ex / "summary.csv") for ex in ("fault02", "fault05")}
    for ex, rows in tables[True].items():
        attacks = {k: r for k, r in rows.items() if k[0].isdigit()}
        assert len(attacks) == {"fault02": 1, "fault05": 3}[ex]
        for key, row in attacks.items():
            assert row["status"] == "crashed" and REFUSED in row["first_failure"], (key, row)
        classmates = {k: r for k, r in rows.items() if k not in attacks}
        assert classmates == tables[False][ex]
        assert classmates["reference.py"]["passed"] == "True"
        assert all(r["passed"] == "False" for k, r in classmates.items() if k != "reference.py")
    assert hashes(scratch) == before  # trace.finish did not rewrite the reference solution


def test_trace_finish_writes_nothing_and_the_report_is_the_graders_own(scratch, listener, tmp_path):
    path = prepare(CORPUS / "judge_trace_finish_writes.py", scratch, listener[0], tmp_path)
    result, _ = cli(scratch, "grade", "fault05", str(path), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)  # the whole of stdout is one report: nothing written before it
    assert report["passed"] is False and REFUSED in report["error"]
    assert not Path(f"/tmp/{MARKER}").exists()


def test_the_timeline_file_is_written_in_the_jail_and_nowhere_else(scratch, listener, tmp_path):
    """A passing solution that writes the timeline to a file: graded 10/10 (the file is the jail's
    own, as a Ray driver writes its own), and the name never reaches the judge."""
    target = f"/tmp/{MARKER}-trace.json"
    source = (
        "import json\nimport miniray as ray\n\n\n"
        "def process_order(api, order_id, amount):\n"
        f"    ray.timeline(filename={target!r})\n"
        f"    assert isinstance(json.load(open({target!r})), list)\n"
        '    key = f"order-{order_id}"\n'
        "    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))\n"
    )
    (tmp_path / "timeline.py").write_text(source)
    result, _ = cli(scratch, "grade", "fault05", str(tmp_path / "timeline.py"), "--json")
    assert result.returncode == 0, result.stdout[-2000:]
    assert not Path(target).exists()
    before = hashes(scratch)
    path = prepare(CORPUS / "path_timeline_filename.py", scratch, listener[0], tmp_path)
    result, _ = cli(scratch, "grade", "fault05", str(path), "--json")
    assert result.returncode == 1 and json.loads(result.stdout)["error"] is None  # graded, and wrong
    assert hashes(scratch) == before and not Path(f"/tmp/{MARKER}").exists()


@pytest.mark.parametrize("case", ["text_lone_surrogates.py", "text_terminal_escapes.py"])
def test_a_submissions_text_is_escaped_in_the_report_and_the_csv_is_whole(scratch, listener, tmp_path, case):
    path = prepare(CORPUS / case, scratch, listener[0], tmp_path)
    result, _ = cli(scratch, "grade", "fault05", str(path))  # the text report: strict UTF-8 (cli)
    assert result.returncode == 1, result.stderr[-2000:]
    assert "what happened:" in result.stdout
    assert not any(c in result.stdout for c in UNSAFE_CHARS)
    assert not any("\ud800" <= c <= "\udfff" for c in result.stdout)
    folder = tmp_path / "class"
    folder.mkdir()
    prepare(CORPUS / case, scratch, listener[0], folder, "a_first.py")
    (folder / "b_next.py").write_text((REPO / "exercises/fault05/reference.py").read_text())
    (folder / "c_last.py").write_text((REPO / "exercises/fault05/wrong/no_key.py").read_text())
    result, _ = cli(scratch, "grade-all", "fault05", str(folder), "--jobs", "2")
    assert result.returncode == 1, result.stderr[-2000:]
    (folder / "graded/summary.csv").read_bytes().decode("utf-8")  # strict: valid UTF-8
    rows = _rows(folder / "graded/summary.csv")
    cells = "".join(v for r in rows.values() for v in r.values())
    assert not any(c in cells for c in UNSAFE_CHARS)
    assert list(rows) == ["a_first.py", "b_next.py", "c_last.py"]
    assert rows["a_first.py"]["status"] == "graded" and "\\" in rows["a_first.py"]["first_failure"]
    assert rows["b_next.py"]["passed"] == "True" and rows["c_last.py"]["passed"] == "False"


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("decode_colliding_set.py", "share a hash"),
        ("memory_type_names.py", "type names in one grading"),
        ("memory_stand_ins.py", "of its objects in one grading"),
        ("memory_exception_classes.py", "kinds of exception in one grading"),
    ],
)
def test_the_judge_refuses_what_would_cost_it_minutes_or_gigabytes(scratch, listener, tmp_path, case, says):
    """Each was minutes of the judge's CPU or gigabytes of its memory; each is refused in seconds,
    with the grader (and its jail) small."""
    path = prepare(CORPUS / case, scratch, listener[0], tmp_path)
    started = time.monotonic()
    result, rss_kb = cli(scratch, "grade", "fault05", str(path), "--json", "--wall-seconds", "120")
    took = time.monotonic() - started
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error.startswith("crashed the grader's sandbox") and says in error, error
    assert took < 60, f"took {took:.0f} s"
    assert rss_kb < 400 * 1024, f"{rss_kb} KB"


def test_children_forked_at_import_are_contained_every_time(scratch, listener, tmp_path):
    path = prepare(CORPUS / "escape_children_at_import.py", scratch, listener[0], tmp_path)
    for _ in range(4):
        started = time.monotonic()
        result, _ = cli(scratch, "grade", "fault05", str(path), "--json", "--wall-seconds", "20")
        assert result.returncode == 1 and json.loads(result.stdout)["passed"] is False
        assert time.monotonic() - started < 20
        time.sleep(0.3)
        assert leftovers() == []


def _wait_until(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_sigterm_while_a_body_runs_ends_the_grading_not_the_body(scratch, listener, tmp_path):
    """The judge is inside the simulation, running the task body the jail blocks in, when SIGTERM
    comes: the CLI stops (143) with no report, and the jail goes with it. Taken for the body's own
    sys.exit(), the grading went on and blamed the submission."""
    path = prepare(CORPUS / "signal_term_in_body.py", scratch, listener[0], tmp_path)
    proc = start_cli(scratch, "grade", "fault05", str(path), "--json", "--wall-seconds", "600")
    try:
        assert _wait_until(lambda: bool(marked()), 120), "the body never started"
        proc.send_signal(signal.SIGTERM)
        result, _ = finish_cli(proc, 60)
    finally:
        proc.kill()
    assert result.returncode == 143, (result.returncode, result.stdout[-1000:], result.stderr[-1000:])
    assert result.stdout == "" and result.stderr.strip() == "terminated"
    assert _wait_until(lambda: not marked(), 10), leftovers()


def _jailed_python(cli_pid: int) -> int | None:
    """The jailed Python under `cli_pid` (its host pid: bubblewrap's children are ours to see)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if b"faultlines.sandbox.inside" not in (proc / "cmdline").read_bytes():
                continue
            pid = int(proc.name)
            while pid > 1:
                pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
                if pid == cli_pid:
                    return int(proc.name)
        except (OSError, ValueError, IndexError):
            continue
    return None


def test_a_jail_killed_from_outside_is_said_so_not_out_of_cpu_time(scratch, listener, tmp_path):
    path = prepare(CORPUS / "signal_kill_from_outside.py", scratch, listener[0], tmp_path)
    proc = start_cli(scratch, "grade", "fault05", str(path), "--json", "--wall-seconds", "600")
    try:
        assert _wait_until(lambda: bool(marked()), 120), "the jail never started"
        python = _jailed_python(proc.pid)
        assert python is not None
        os.kill(python, signal.SIGKILL)
        result, _ = finish_cli(proc, 60)
    finally:
        proc.kill()
    assert result.returncode in (1, 2), result.stderr[-2000:]
    said = json.loads(result.stdout)["error"] if result.returncode == 1 else result.stderr
    assert "killed from outside the grader" in said and "CPU time" not in said, said
    assert _wait_until(lambda: not marked(), 10), leftovers()


CORRUPT = r"""
import sys
from pathlib import Path
from faultlines.cli import judge_process
from faultlines.grader import exercise
from faultlines.sandbox import machine, run
from faultlines.sandbox.jail import Limits

real = run.grade_file


def corrupting(exercise_id, path, **kwargs):
    # The worst a submission could do with the judge in its hands: empty every dict, list and set
    # of every module of miniray's and the course's, then be graded.
    if path.name == "first.py":
        for name, module in list(sys.modules.items()):
            if name.split(".")[0] in ("miniray", "faultlines") or name.startswith("faultlines_exercise"):
                for value in list(vars(module).values()):
                    if type(value) in (dict, list, set):
                        value.clear()
    return real(exercise_id, path, **kwargs)


run.grade_file = corrupting
ex = exercise.load("fault05")
plan, limits = machine.probe(), Limits()
first = judge_process._fork_one(ex, Path(sys.argv[1]), plan, limits)
second = judge_process._fork_one(ex, Path(sys.argv[2]), plan, limits)
print(json.dumps([first, second]))
"""


def test_every_submission_gets_a_judge_process_of_its_own(tmp_path):
    """Whatever one grading does to its judge's memory (here: every module-level table of miniray
    and the grader emptied), the next submission's judge starts from the template, untouched."""
    (tmp_path / "first.py").write_text((REPO / "exercises/fault05/wrong/no_key.py").read_text())
    (tmp_path / "second.py").write_text((REPO / "exercises/fault05/reference.py").read_text())
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json\n" + CORRUPT,
            str(tmp_path / "first.py"),
            str(tmp_path / "second.py"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    first, second = json.loads(result.stdout.strip().splitlines()[-1])
    assert first.get("lost") or not first["report"]["passed"]  # its own grading broke, or failed
    assert second["report"]["passed"] is True and second["report"]["score"] == 10, second
