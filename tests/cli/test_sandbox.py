"""The grader's sandbox on this machine: what a jail holds, what the CLI does without bubblewrap,
and that Ctrl-C, SIGTERM, `timeout` and a killed CLI end the whole jail."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlines.sandbox import machine
from faultlines.sandbox.jail import Jail, Limits, python_binary

REPO = Path(__file__).resolve().parents[2]
EX05 = REPO / "exercises/fault05"
MARKER = f"flsignal{os.getpid()}"
jailed = pytest.mark.skipif(not machine.probe().jailed, reason=machine.probe().describe())

INSIDE = r"""
import json, os, socket
found = {"uid": os.getuid(), "pid": os.getpid(), "env": dict(os.environ), "root": sorted(os.listdir("/"))}
found["caps"] = open("/proc/self/status").read() if os.path.exists("/proc/self/status") else "no /proc"
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
    found["net"] = "connected"
except OSError as e:
    found["net"] = type(e).__name__
for path in ("/usr/x", "/fl/miniray/x", "/tmp/x"):
    try:
        open(path, "w").write("x")
        found[path] = "written"
    except OSError as e:
        found[path] = type(e).__name__
found["fl"] = sorted(os.listdir("/fl")) + sorted(os.listdir("/fl/faultlines"))
print(json.dumps(found))
"""


@jailed
def test_a_jail_has_no_network_no_proc_no_environment_and_a_read_only_view():
    jail = Jail(machine.probe(), Limits(), command=[python_binary(), "-I", "-S", "-c", INSIDE])
    try:
        out, err = jail.proc.communicate(timeout=60)
    finally:
        jail.close()
    found = json.loads(out)
    assert found["pid"] < 10  # its own PID namespace: bubblewrap is PID 1, no parent to signal
    # Nothing of the parent's: HOME and PWD (bubblewrap's), LC_CTYPE (Python's own C-locale coercion).
    assert found["env"] == {"HOME": "/tmp", "PWD": "/tmp", "LC_CTYPE": "C.UTF-8"}
    assert found["caps"] == "no /proc" and "proc" not in found["root"] and "sys" not in found["root"]
    assert found["net"] in ("OSError", "ConnectionRefusedError") or "Unreachable" in found["net"]
    assert found["net"] != "connected"
    assert (
        found["/usr/x"] != "written" and found["/fl/miniray/x"] != "written" and found["/tmp/x"] == "written"
    )
    assert "exercises" not in found["root"] and "work" not in found["root"]
    assert found["fl"] == ["faultlines", "miniray", "__init__.py", "grader", "sandbox"]


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "faultlines", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize("bwrap", ["/nonexistent/bwrap", "/bin/false"])
def test_without_bubblewrap_grade_says_so_and_hidden_tiers_and_grade_all_refuse(tmp_path, bwrap):
    env = {"FAULTLINES_BWRAP": bwrap}  # missing, or there but failing its no-op probe
    result = _cli("grade", "fault05", str(EX05 / "reference.py"), "--json", env=env)
    assert result.returncode == 0 and json.loads(result.stdout)["passed"] is True
    note = result.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("note: no sandbox"), result.stderr
    hidden = ("--hidden", "tests/fixtures/hidden")
    result = _cli("grade", "fault05", str(EX05 / "reference.py"), *hidden, env=env)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "--hidden needs the grader's sandbox" in result.stderr and "--unsafe-local" in result.stderr
    (tmp_path / "ada.py").write_text((EX05 / "reference.py").read_text())
    result = _cli("grade-all", "fault05", str(tmp_path), env=env)
    assert result.returncode == 2 and "grade-all needs the grader's sandbox" in result.stderr
    result = _cli(
        "grade", "fault05", str(EX05 / "reference.py"), *hidden, "--json", "--unsafe-local", env=env
    )
    assert result.returncode == 0 and json.loads(result.stdout)["tiers"][-1]["hidden"] is True
    result = _cli("grade-all", "fault05", str(tmp_path), "--unsafe-local", env=env)
    assert result.returncode == 0, result.stderr


SLEEPER = f"""
import os, time
os.posix_spawnp("sh", ["sh", "-c", "sleep 3600", "{MARKER}"], {{}})
time.sleep(3600)

def process_order(api, order_id, amount):
    pass
"""


def _marked() -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and MARKER.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return [p for p in found if p != os.getpid()]


def _wait_until(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@jailed
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGKILL", "timeout"])
def test_ending_the_cli_ends_the_whole_jail(tmp_path, how):
    path = tmp_path / "sleeper.py"
    path.write_text(SLEEPER)
    args = [sys.executable, "-m", "faultlines", "grade", "fault05", str(path), "--wall-seconds", "600"]
    if how == "timeout":
        # Long enough for the jail to start on a loaded machine (5 s was not, at load 12), so the
        # timeout lands while the jail runs, which is the case under test.
        args = ["timeout", "15", *args]
    # As a terminal starts it: with Ctrl-C's default action. A job a non-interactive shell puts in
    # the background (as CI may run this suite) inherits SIGINT ignored, and Python then never
    # turns SIGINT into KeyboardInterrupt.
    proc = subprocess.Popen(
        args,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert _wait_until(lambda: bool(_marked()), 60), "the jail's process never started"
        if how != "timeout":
            proc.send_signal(getattr(signal, how))
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGUSR1)  # the CLI prints its threads' stacks (faulthandler)
            time.sleep(2)
            proc.kill()
            _, err = proc.communicate(timeout=30)
            raise AssertionError(
                f"the CLI outlived {how} by 60 s; its stacks:\n{err.decode()[-6000:]}"
            ) from None
        assert _wait_until(lambda: not _marked(), 10), _marked()
    finally:
        proc.kill()
        for pid in _marked():
            os.kill(pid, signal.SIGKILL)
    expected = {"SIGINT": 130, "SIGTERM": 143, "SIGKILL": -9, "timeout": 124}[how]
    assert proc.returncode == expected


@jailed
def test_terminating_grade_all_ends_every_judge_and_jail(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a.py", "b.py"):
        (folder / name).write_text(SLEEPER)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "faultlines",
            "grade-all",
            "fault05",
            str(folder),
            "--jobs",
            "2",
            "--wall-seconds",
            "600",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert _wait_until(lambda: len(_marked()) >= 2, 90), "the jails never started"
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        assert _wait_until(lambda: not _marked(), 10), _marked()
    finally:
        proc.kill()
        for pid in _marked():
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 143


def test_a_learners_hold_on_minirays_own_constant_is_the_judges_own_and_nothing_else_crosses_so():
    """`from miniray.liveness import RETRYABLE` in a submission: the judge holds miniray's own
    tuple, as in one process (fault08's check that the policy is the learner's own sees it). A
    jail that names anything else that way (a function, another module, a private name, a
    mutable table) is refused: it could only be a forged message."""
    from faultlines.sandbox import proxies, wire
    from miniray import fault_kinds, liveness

    assert proxies.shipped("miniray.liveness:RETRYABLE") is liveness.RETRYABLE
    assert fault_kinds.KINDS  # a dict: mutable, never handed over
    for forged in (
        "os:system",
        "miniray.liveness:_private",
        "miniray.fault_kinds:KINDS",
        "miniray.fault_kinds:kind",  # a function: re-registering every fault kind
        "miniray.events:dataclass",  # dataclasses.dataclass, imported there
        "miniray.observe.trace:finish",  # writes a file
        "miniray.isolation:warn_file_write",
        "miniray.liveness.attribution:classify",
        "miniray.nothing:X",
    ):
        with pytest.raises(wire.WireError):
            proxies.shipped(forged)
