"""The hostile corpus (tests/cli/hostile/): every submission there fails or is refused (exit 2),
with no hang, no process left behind, no changed file and no connection out.

Each runs `python -m faultlines grade` against a scratch copy of the repository (exercises,
faultlines, miniray, the hidden-tier fixture with a note planted in it), with a secret in the
grader's environment and a TCP server listening on this machine. One more test grades a class of
them with grade-all: each failure is one row, and the class is graded.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from faultlines.sandbox import machine

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests/cli/hostile"
MARKER = f"flhostile{os.getpid()}"
SECRET = f"FL_SECRET_{os.getpid()}"
NOTE = f"NOTE-{MARKER}-planted-in-the-hidden-tiers"
WALL_S = "8"  # the sleepers' wall-clock limit: the time a blocked submission costs here
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
}

pytestmark = pytest.mark.skipif(
    not machine.probe().jailed, reason=f"needs the grader's sandbox: {machine.probe().describe()}"
)


def _header(path: Path, key: str) -> str:
    for line in path.read_text().splitlines():
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{path.name} has no '# {key}:' line")


CASES = sorted(p for p in CORPUS.glob("*.py"))


def test_the_corpus_covers_every_class():
    assert {_header(p, "class") for p in CASES} == CLASSES
    assert len(CASES) >= 30


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A copy of what grading reads and could write: the test checks nothing in it changes."""
    root = tmp_path_factory.mktemp("scratch-repo")
    for part in ("faultlines", "miniray", "exercises"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "tests/fixtures/hidden", root / "hidden")
    tiers = root / "hidden/fault05/tiers.toml"
    tiers.write_text(tiers.read_text() + f"\n# {NOTE}\n")
    return root


def _hashes(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def listener():
    """A TCP server on this machine; every connection it accepts is noted."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    accepted: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    accepted.append(conn.recv(1024) or b"(connected)")
                except OSError:
                    accepted.append(b"(connected)")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(timeout=5)
    server.close()


def _leftovers() -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if MARKER.encode() in cmdline and int(proc.name) != os.getpid():
            found.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return found


def _stale_cgroups() -> list[str]:
    base = Path("/sys/fs/cgroup/pids")
    return [p.name for p in base.glob("faultlines-*-*") if not Path(f"/proc/{p.name.split('-')[1]}").exists()]


def _prepare(case: Path, scratch: Path, port: int, folder: Path) -> Path:
    text = case.read_text()
    for key, value in {
        "@@REPO@@": str(scratch),
        "@@HIDDEN@@": str(scratch / "hidden"),
        "@@PORT@@": str(port),
        "@@MARKER@@": MARKER,
        "@@SECRET@@": SECRET,
    }.items():
        text = text.replace(key, value)
    path = folder / case.name
    path.write_text(text)
    return path


def _cli(scratch: Path, *args: str) -> tuple[subprocess.CompletedProcess, int]:
    """Run the CLI from the scratch copy: (the result, the largest RSS in KB of the process and of
    the descendants it waited for, from wait4)."""
    env = {**os.environ, "PYTHONPATH": str(scratch), SECRET: "the-instructors-token"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "faultlines", *args],
        cwd=scratch,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream) -> None:
        chunks[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    timer = threading.Timer(240, proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    for reader in readers:
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode != -9, f"{args}: hung past 240 s"
    out, err = chunks["out"].decode(), chunks["err"].decode()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), usage.ru_maxrss


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_a_hostile_submission_is_contained(case, scratch, listener, tmp_path):
    port, accepted = listener
    before = _hashes(scratch)
    path = _prepare(case, scratch, port, tmp_path)
    exercise = _header(case, "exercise")
    started = time.monotonic()
    result, _ = _cli(
        scratch,
        "grade",
        exercise,
        str(path),
        "--json",
        "--hidden",
        str(scratch / "hidden"),
        "--wall-seconds",
        WALL_S,
    )
    took = time.monotonic() - started
    assert result.returncode in (1, 2), (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    if result.returncode == 1:
        data = json.loads(result.stdout)
        assert data["passed"] is False and data["score"] < data["max_score"], data.get("error")
    else:
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.endswith("\n"), result.stderr
    assert took < float(WALL_S) + 60, f"took {took:.0f} s"
    time.sleep(0.3)  # a process that escaped would still be alive now
    assert _leftovers() == []
    assert _hashes(scratch) == before
    assert not Path(f"/tmp/{MARKER}").exists() and not Path(f"/tmp/{MARKER}-sh").exists()
    assert accepted == []
    assert NOTE not in result.stdout + result.stderr
    assert "the-instructors-token" not in result.stdout + result.stderr
    assert _stale_cgroups() == []


def test_huge_output_leaves_the_grader_small(scratch, listener, tmp_path):
    for name in ("output_print_100mb.py", "output_fds_100mb.py"):
        path = _prepare(CORPUS / name, scratch, listener[0], tmp_path)
        result, rss_kb = _cli(scratch, "grade", "fault05", str(path), "--json")
        assert result.returncode in (1, 2)  # printing at import runs past the import budget: exit 2
        assert len(result.stdout) < 1 << 20 and len(result.stderr) < 1 << 20
        assert 0 < rss_kb < 400 * 1024, f"{name}: {rss_kb} KB"


def test_grade_all_grades_the_class_whatever_one_submission_does(scratch, listener, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("kill_parent.py", "kill_everyone.py", "block_sleep_at_import.py", "forge_exit_early.py"):
        _prepare(CORPUS / name, scratch, listener[0], folder)
    (folder / "ada.py").write_text((REPO / "exercises/fault05/reference.py").read_text())
    result, _ = _cli(scratch, "grade-all", "fault05", str(folder), "--jobs", "2", "--wall-seconds", "5")
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
    assert _leftovers() == []
