"""Running one conformance scenario on one backend (real Ray or miniray) in a fresh process.

Each run is `runner.py <backend> <scenario> <workdir>` in its own process (its own session, so
a hang can be killed whole); a real-Ray run gets a private RAY_TMPDIR, and whatever still carries
it when the run ends is killed (ray_processes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from conformance.observations import REPO, recorded_file
from conformance.ray_processes import kill_group, kill_processes_with_env

RUNNER = Path(__file__).resolve().parent / "runner.py"
# The scenarios are the conformance tests' cases; the bench times the same ones.
SCENARIO_DIR = REPO / "tests" / "conformance" / "scenarios"
RESULT_MARKER = "CONFORMANCE-RESULT "
# Generous: the slowest scenario takes ~25 s alone on 2 cores; a hang must not stall the suite.
TIMEOUT_S = 180


def scenario_names() -> list[str]:
    """Every scenario module, slowest on real Ray first so two-at-a-time runs pack well.

    Durations come from the last recording; scenarios never recorded go first.
    """
    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.py") if not p.stem.startswith("_"))
    walls = recorded_file().get("wall_s", {})
    return sorted(names, key=lambda n: -walls.get(n, float("inf")))


def recorded_only(name: str) -> bool:
    """True for a scenario whose module says LIVE_ON_RAY = False: too slow to run on real Ray in
    every `make test` (it waits out timeouts and restarts), so only its recording is checked.
    `make conformance-live` (FAULTLINES_CONFORMANCE_LIVE=all) runs every scenario live."""
    if os.environ.get("FAULTLINES_CONFORMANCE_LIVE") == "all":
        return False
    text = (SCENARIO_DIR / f"{name}.py").read_text()
    return "\nLIVE_ON_RAY = False" in text


@dataclass
class RunResult:
    backend: str
    scenario: str
    observations: dict | None
    wall_s: float  # the scenario's run() alone, measured inside the runner
    process_s: float  # the whole subprocess, interpreter and imports included
    output: str  # stdout + stderr tail, for failure messages
    command: str

    @property
    def ok(self) -> bool:
        return self.observations is not None


def run_scenario(
    python: str | os.PathLike,
    backend: str,
    scenario: str,
    workdir: str | os.PathLike,
    timeout: float = TIMEOUT_S,
) -> RunResult:
    """Run one scenario on one backend in a fresh process; never raises for scenario failures."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    ray_tmp = None
    if backend == "ray":
        ray_tmp = tempfile.mkdtemp(prefix="rc", dir="/tmp")  # short: socket paths live under it
        env["RAY_TMPDIR"] = ray_tmp
    cmd = [str(python), str(RUNNER), backend, scenario, str(workdir)]
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )
    try:
        output, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        output, _ = proc.communicate()
        timed_out = True
    finally:
        if ray_tmp:
            kill_processes_with_env("RAY_TMPDIR", ray_tmp)
            shutil.rmtree(ray_tmp, ignore_errors=True)
    process_s = time.perf_counter() - started
    observations, wall_s = None, process_s
    for line in output.splitlines():
        if line.startswith(RESULT_MARKER):
            payload = json.loads(line[len(RESULT_MARKER) :])
            observations, wall_s = payload["observations"], payload["wall_s"]
    if timed_out:
        output += f"\n[harness] killed after {timeout} s"
    return RunResult(backend, scenario, observations, wall_s, process_s, output[-6000:], " ".join(cmd))
