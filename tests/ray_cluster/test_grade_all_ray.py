"""`grade-all --ray ADDRESS` against a real Ray 2.60 cluster on this machine: a head node started
with `ray start`, the CLI run by the Ray venv's Python, and the same CSV as grading locally. Every
node must sandbox: the run checks each one first, and each task grades in a jail on its node.

Starting a Ray head takes from ten seconds to minutes on this 2-core machine (it may time out
under load, so it is retried), which is too slow for every `make test`: `make test-ray` runs this
file with FAULTLINES_TEST_RAY=1 and RAY_PYTHON set; otherwise it skips.
"""

from __future__ import annotations

import csv
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EX05 = REPO / "exercises/fault05"
START_TRIES = 3
# A throwaway cluster on 127.0.0.1: no token auth, so neither side reads a token from this
# machine's home folder (Ray 2.60 turns token auth on when it finds one there).
RAY_ENV = {**os.environ, "RAY_AUTH_MODE": "disabled"}

pytestmark = pytest.mark.skipif(
    os.environ.get("FAULTLINES_TEST_RAY") != "1", reason="starts a real Ray cluster: run `make test-ray`"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_under(marker: str) -> list[int]:
    """Our cluster's processes: every one Ray started names our own temporary folder."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def _stop(marker: str) -> None:
    # Not `ray stop`: it stops every Ray on the machine, and other work may be running one.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _processes_under(marker):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(2)


@pytest.fixture(scope="module")
def ray_python() -> Path:
    python = os.environ.get("RAY_PYTHON")
    if not python:
        pytest.fail("RAY_PYTHON is unset: `make test-ray` sets it to .venv-ray/bin/python (ray==2.60.0)")
    return Path(python)


@pytest.fixture(scope="module")
def cluster(ray_python: Path):
    """The address of a one-node Ray cluster (2 CPUs) of our own, stopped afterwards."""
    temp = tempfile.mkdtemp(prefix="flray", dir="/tmp")  # short: Ray's sockets live under it
    errors = []
    try:
        for _ in range(START_TRIES):
            port = _free_port()
            start = subprocess.run(
                [
                    str(ray_python.parent / "ray"),
                    "start",
                    "--head",
                    f"--port={port}",
                    "--num-cpus=2",
                    "--node-ip-address=127.0.0.1",
                    "--include-dashboard=false",
                    "--disable-usage-stats",
                    f"--temp-dir={temp}",
                ],
                capture_output=True,
                text=True,
                timeout=300,
                env=RAY_ENV,
            )
            if start.returncode == 0:
                yield f"127.0.0.1:{port}"
                return
            errors.append(start.stderr.strip().splitlines()[-1:] or ["(no message)"])
            _stop(temp)
        pytest.fail(f"Ray did not start in {START_TRIES} tries on this machine: {errors}")
    finally:
        _stop(temp)


def _summary(folder: Path) -> list[dict]:
    with open(folder / "graded" / "summary.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_grade_all_fans_out_over_a_real_ray_cluster(tmp_path, ray_python, cluster):
    rows = {}
    for how in ("ray", "local"):
        folder = tmp_path / how
        folder.mkdir()
        (folder / "ada.py").write_text((EX05 / "reference.py").read_text())
        (folder / "bob.py").write_text((EX05 / "wrong/no_key.py").read_text())
        (folder / "cy.py").write_text((EX05 / "reference.py").read_text())  # a worker per submission
        (folder / "zed.py").symlink_to(EX05 / "reference.py")  # a link is a row, never graded
        args = ["--ray", cluster] if how == "ray" else ["--jobs", "2"]
        result = subprocess.run(
            [str(ray_python), "-m", "faultlines", "grade-all", "fault05", str(folder), *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=900,
            env={**RAY_ENV, "PYTHONPATH": str(REPO)},  # the Ray venv has Ray, not faultlines
        )
        assert result.returncode == 1, result.stderr[-2000:]  # bob fails, so the class does
        assert "4/4" in result.stderr  # the progress bar reached the end
        rows[how] = _summary(folder)
        for name in ("ada.py", "bob.py", "cy.py"):
            assert (folder / "graded" / name / "results.json").is_file()
    assert [(r["submission"], r["passed"], r["status"]) for r in rows["ray"]] == [
        ("ada.py", "True", "graded"),
        ("bob.py", "False", "graded"),
        ("cy.py", "True", "graded"),
        ("zed.py", "False", "skipped"),
    ]
    assert rows["ray"] == rows["local"]  # the cluster grades exactly as this machine does, each jailed


def test_an_unreachable_cluster_is_one_line_and_exit_2(tmp_path, ray_python):
    (tmp_path / "ada.py").write_text((EX05 / "reference.py").read_text())
    result = subprocess.run(
        [str(ray_python), "-m", "faultlines", "grade-all", "fault05", str(tmp_path), "--ray", "127.0.0.1:1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**RAY_ENV, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].startswith("--ray 127.0.0.1:1: cannot start or reach")
