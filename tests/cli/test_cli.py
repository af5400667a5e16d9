"""The instructor CLI: exit statuses, one-line bad input, JSON, hidden tiers, replay, what users
type (exercise folders, `| head`), and the resource limits. grade-all's bookkeeping is in
test_grade_all.py, the sandbox's machine checks in test_sandbox.py, the hostile submissions in
test_hostile.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultlines.grader import tokens

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
    lines = result.stderr.rstrip().splitlines()
    shown = ["    def process_order(:", "                      ^"] if "SYNTAX" in args[-1] else []
    assert len(lines) == 1 + len(shown) and message in lines[0], result.stderr
    assert lines[1:] == shown, "a syntax error shows its line with a caret under the place"


def test_a_syntax_error_shows_its_line_and_a_caret_in_grade_and_replay(tmp_path):
    path = write(
        tmp_path, "typo.py", "def process_order(api, order_id, amount):\n\tapi.charge(order_id amount)\n"
    )
    token = tokens.Token("fault05", 1, "abc", "two-orders", ()).encode()
    for args in (
        ("grade", "fault05", str(path)),
        ("grade", "fault05", str(path), "--unsafe-local"),
        ("replay", token, str(path)),
    ):
        result = cli(*args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.rstrip().splitlines() == [
            "typo.py: syntax error on line 2: invalid syntax. Perhaps you forgot a comma?",
            "    api.charge(order_id amount)",
            "               ^^^^^^^^^^^^^^^",
        ], args


def test_a_step_budget_stop_names_the_line_that_was_running(tmp_path):
    path = write(
        tmp_path,
        "spin.py",
        "def settle(n):\n    while n:\n        n += 1\n\n\ndef process_order(api, order_id, amount):\n"
        "    settle(1)\n",
    )
    result = cli("grade", "fault05", str(path), "--json")
    assert result.returncode == 1, result.stderr
    failure = next(t["failure"] for t in json.loads(result.stdout)["tiers"] if t["failure"])
    assert failure["invariant"] == "step-budget"
    assert "; it stopped at line 3 in settle: n += 1." in failure["detail"]


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


def test_grade_takes_the_exercise_folder_as_tab_completion_gives_it():
    want = json.loads(cli("grade", "fault01", str(EX01 / "reference.py"), "--json").stdout)
    for given in ("exercises/fault01", "exercises/fault01/", str(EX01) + "/"):
        result = cli("grade", given, str(EX01 / "reference.py"), "--json")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["score"] == want["score"] == want["max_score"]
    result = cli("grade", "exercises/", str(EX01 / "reference.py"))
    assert result.returncode == 2 and "not an exercise folder" in result.stderr


def test_piping_into_head_prints_no_traceback():
    command = f"{sys.executable} -m faultlines grade fault05 {EX05 / 'wrong/no_key.py'} | head -1"
    result = subprocess.run(["bash", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert result.stdout.startswith("fault05 (v1)") and result.stdout.count("\n") == 1
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr


def test_every_error_line_ends_with_a_newline(tmp_path):
    bad = write(tmp_path, "bad.py", "def process_order(:\n")
    for args in (
        ("grade", "fault05", str(bad)),
        ("grade", "fault77", str(bad)),
        ("grade-all", "fault05", str(tmp_path / "missing")),
        ("replay", "nonsense"),
    ):
        result = cli(*args)
        assert result.returncode == 2 and result.stderr.endswith("\n"), (args, result.stderr)


# -- limits the counted budgets cannot see ------------------------------------------------------------

NO_KEY = (EX05 / "wrong/no_key.py").read_text()


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
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["passed"] is False and "resource limit" in data["error"], data["error"]


def test_a_memory_limit_gives_a_resource_limit_failure(tmp_path):
    source = "BIG = bytearray(8 * 1024**3)\n" + NO_KEY
    result = cli(
        "grade",
        "fault05",
        str(write(tmp_path, "big.py", source)),
        "--json",
        env={"FAULTLINES_MEMORY_MB": "1024"},
    )
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["passed"] is False and "resource limit" in data["error"], data["error"]


def test_a_report_larger_than_the_pipe_buffer_still_arrives(tmp_path):
    # A failure message of 300 KB: once a report that blocked a pipe's 64 KB buffer until the wall
    # limit; now a long value across the judge's pipe to its jail, in both directions.
    starter = (REPO / "exercises/fault00/starter.py").read_text()
    clean = '        return " ".join(line.lower().split())'
    assert clean in starter
    source = starter.replace(clean, '        raise ValueError("the line is not clean: " + "x" * 300_000)')
    result = cli("grade", "fault00", str(write(tmp_path, "big.py", source)), "--json")
    assert result.returncode == 1, result.stderr[-2000:]
    data = json.loads(result.stdout)
    assert data["passed"] is False and data["error"] is None
    assert len(result.stdout) > 1 << 16
