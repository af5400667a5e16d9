"""The instructor CLI: exit statuses, one-line bad input, JSON, hidden tiers, grade-all, replay,
and the ways a submission might try to fake a pass (none of them gives one)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EX05 = REPO / "exercises/fault05"
EX01 = REPO / "exercises/fault01"


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        [sys.executable, "-m", "faultlines", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def test_reference_passes_with_status_0_and_json_has_the_score():
    result = cli("grade", "fault05", str(EX05 / "reference.py"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["passed"] is True and data["score"] == data["max_score"] == 10


def test_a_wrong_solution_fails_with_status_1_and_names_the_invariant():
    result = cli("grade", "fault05", str(EX05 / "wrong/no_key.py"))
    assert result.returncode == 1
    assert "broken invariant: charged-at-most-once" in result.stdout
    assert "order 17 charged 2 times" in result.stdout
    assert "python -m faultlines replay FL1.fault05.v1." in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("grade", "fault05", "missing.py"), "missing.py: no such file"),
        (("grade", "fault77", str(EX05 / "reference.py")), "unknown exercise 'fault77'"),
        (("grade", "fault05", "SYNTAX"), "syntax error on line 1"),
        (("grade", "fault05", "NOFUNC"), "no function named 'process_order'"),
        (("grade",), "the following arguments are required"),
        (("replay", "nonsense"), "not a replay token"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path, args, message):
    files = {"SYNTAX": "def process_order(:\n", "NOFUNC": "def other():\n    pass\n"}
    args = tuple(str(write(tmp_path, f"{a}.py", files[a])) if a in files else a for a in args)
    result = cli(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_hidden_tiers_come_from_the_folder_given():
    public = json.loads(cli("grade", "fault05", str(EX05 / "reference.py"), "--json").stdout)
    hidden = json.loads(
        cli(
            "grade", "fault05", str(EX05 / "reference.py"), "--json", "--hidden", "tests/fixtures/hidden"
        ).stdout
    )
    assert hidden["max_score"] > public["max_score"]
    assert hidden["tiers"][-1]["hidden"] is True and hidden["passed"] is True


def test_partial_credit_by_tier():
    data = json.loads(cli("grade", "fault05", str(EX05 / "wrong/check_then_charge.py"), "--json").stdout)
    assert 0 < data["score"] < data["max_score"] and data["passed"] is False


def test_replay_prints_the_failing_timeline(tmp_path):
    report = json.loads(cli("grade", "fault05", str(EX05 / "starter.py"), "--json").stdout)
    token = next(t["failure"]["token"] for t in report["tiers"] if t["failure"])
    result = cli("replay", token, str(EX05 / "starter.py"))
    assert result.returncode == 1
    assert "task.start attempt=process_order#1/" in result.stdout
    assert "broken invariant: charged-at-most-once" in result.stdout
    assert cli("replay", token).returncode == 0  # the reference survives the same schedule
    stale = token.replace(".v1.", ".v9.")
    result = cli("replay", stale)
    assert result.returncode == 2 and "version 9 of fault05" in result.stderr


def test_replay_opens_a_share_link_on_the_code_it_carries():
    from faultlines.grader import share

    report = json.loads(cli("grade", "fault05", str(EX05 / "starter.py"), "--json").stdout)
    token = next(t["failure"]["token"] for t in report["tiers"] if t["failure"])
    link = "https://course.example/exercises/replay/" + share.SharedRun(
        "fault05", token, (EX05 / "starter.py").read_text()
    ).link(page="")
    result = cli("replay", link)
    assert result.returncode == 1 and "broken invariant: charged-at-most-once" in result.stdout
    assert "other code" not in result.stdout  # replayed on the shared code, not the reference
    stale = share.SharedRun("fault05", token.replace(".v1.", ".v3."), "").link()
    result = cli("replay", stale)
    assert result.returncode == 2 and "version 3 of fault05" in result.stderr
    result = cli("replay", "https://course.example/exercises/replay/#s=garbage!")
    assert result.returncode == 2 and "damaged" in result.stderr and result.stderr.count("\n") == 1


def test_grade_all_writes_a_summary_and_gradescope_results(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text((EX05 / "reference.py").read_text())
    (folder / "bob.py").write_text((EX05 / "wrong/no_key.py").read_text())
    (folder / "cy").mkdir()
    (folder / "cy" / "solution.py").write_text("def process_order(:\n")
    result = cli("grade-all", "fault05", str(folder), "--jobs", "2")
    assert result.returncode == 1, result.stderr
    assert "3/3" in result.stderr  # the progress bar's last state
    rows = {r["submission"]: r for r in csv.DictReader(open(folder / "graded/summary.csv"))}
    assert rows["ada"]["passed"] == "True" and rows["ada"]["score"] == "10"
    assert rows["bob"]["passed"] == "False" and "charged-at-most-once" in rows["bob"]["first_failure"]
    assert rows["cy"]["passed"] == "False" and "syntax error" in rows["cy"]["first_failure"]
    gradescope = json.loads((folder / "graded/bob/results.json").read_text())
    assert gradescope["score"] == 0 and {t["status"] for t in gradescope["tests"]} == {"failed"}


# -- a submission cannot fake a pass ------------------------------------------------------------

NO_KEY = (EX05 / "wrong/no_key.py").read_text()


def _fails(result: subprocess.CompletedProcess) -> None:
    assert result.returncode in (1, 2), result.stdout + result.stderr
    if result.returncode == 1 and result.stdout.startswith("{"):
        assert json.loads(result.stdout)["passed"] is False


def test_exiting_early_with_status_0_is_no_pass(tmp_path):
    source = "import os\ndef call_with_retries(submit, max_attempts=4, base_delay_s=1.0):\n    os._exit(0)\n"
    result = cli("grade", "fault01", str(write(tmp_path, "exit.py", source)), "--json")
    _fails(result)
    assert "ended before it reported" in json.loads(result.stdout)["error"]


def test_printing_a_fake_result_is_no_pass(tmp_path):
    fake = '{"score": 10, "max_score": 10, "passed": true}'
    source = f"print({fake!r})\nprint('PASSED 10/10')\n" + NO_KEY
    result = cli("grade", "fault05", str(write(tmp_path, "fake.py", source)), "--json")
    _fails(result)
    assert json.loads(result.stdout)["score"] == 0


@pytest.mark.parametrize(
    "patch",
    [
        "import faultlines.grader.runner as r\nr._judge = lambda *a: []\n",
        "import miniray.liveness.services as s\ns.Services._log = lambda *a, **k: None\n",
        "import faultlines.grader.grade as g\n_real = g.grade_tier\n"
        "def _pass(*a, **k):\n    t = _real(*a, **k)\n    t.passed, t.earned, t.failure = True, t.points, None\n    return t\n"
        "g.grade_tier = _pass\n",
    ],
)
def test_patching_the_grader_or_miniray_is_no_pass(tmp_path, patch):
    result = cli("grade", "fault05", str(write(tmp_path, "patch.py", patch + NO_KEY)), "--json")
    _fails(result)
    data = json.loads(result.stdout)
    assert data["passed"] is False and "changed the grader or miniray" in data["error"]


def test_reading_the_hidden_tiers_is_no_pass(tmp_path):
    # The child gets the hidden tiers' text on stdin, read before the submission loads; neither
    # the folder's path (argv, environment) nor its files (the working directory) reach it.
    source = (
        "import os, sys\n"
        "found = ' '.join(sys.argv) + ' '.join(os.environ.values()) + ' '.join(os.listdir('.'))\n"
        "try:\n    found += sys.stdin.read()\nexcept Exception:\n    pass\n"
        "for rel in ('tests/fixtures/hidden/fault05/tiers.toml', '../hidden/fault05/tiers.toml'):\n"
        "    try:\n        found += open(rel).read()\n    except OSError:\n        pass\n"
        "CHEAT = 'hidden' in found\n"
        "def process_order(api, order_id, amount):\n"
        "    key = f'order-{order_id}' if CHEAT else None\n"
        "    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))\n"
    )
    result = cli(
        "grade",
        "fault05",
        str(write(tmp_path, "peek.py", source)),
        "--json",
        "--hidden",
        "tests/fixtures/hidden",
    )
    _fails(result)


def test_forking_is_no_pass(tmp_path):
    source = (
        "import os, posix\n"
        "def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):\n"
        "    for fork in (os.fork, posix.fork):\n"
        "        try:\n"
        "            if fork() == 0:\n"
        "                print('PASSED')\n"
        "                os._exit(0)\n"
        "        except PermissionError:\n"
        "            pass\n"
        "    return None\n"
    )
    result = cli("grade", "fault01", str(write(tmp_path, "fork.py", source)), "--json")
    _fails(result)
    assert json.loads(result.stdout)["score"] == 0


def test_a_cpu_limit_gives_a_resource_limit_failure(tmp_path):
    # One C-level loop: a single statement, so the step budget cannot see it; the rlimit can.
    source = "def process_order(api, order_id, amount):\n    sum(range(10**13))\n"
    result = cli(
        "grade",
        "fault05",
        str(write(tmp_path, "spin.py", source)),
        "--json",
        env={"FAULTLINES_CPU_SECONDS": "3"},
    )
    _fails(result)
    assert "resource limit" in json.loads(result.stdout)["error"]


def test_a_memory_limit_gives_a_resource_limit_failure(tmp_path):
    source = "BIG = bytearray(8 * 1024**3)\n" + NO_KEY
    result = cli(
        "grade",
        "fault05",
        str(write(tmp_path, "big.py", source)),
        "--json",
        env={"FAULTLINES_MEMORY_MB": "1024"},
    )
    _fails(result)
    assert "resource limit" in json.loads(result.stdout)["error"]


def test_a_report_larger_than_the_pipe_buffer_still_arrives(tmp_path):
    # The child writes its report down a pipe; one past the pipe's 64 KB buffer (here a 300 KB
    # failure message) used to block the child until the wall limit, so `grade` hung for 900 s.
    starter = (REPO / "exercises/fault00/starter.py").read_text()
    clean = '        return " ".join(line.lower().split())'
    assert clean in starter
    source = starter.replace(clean, '        raise ValueError("the line is not clean: " + "x" * 300_000)')
    result = cli("grade", "fault00", str(write(tmp_path, "big.py", source)), "--json")
    assert result.returncode == 1, result.stderr[-2000:]
    data = json.loads(result.stdout)
    assert data["passed"] is False and data["error"] is None
    assert len(result.stdout) > 1 << 16
