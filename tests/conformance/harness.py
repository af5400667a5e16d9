"""Running scenarios in subprocesses and comparing what two backends observed.

Used by test_conformance.py, record.py and bench/conformance_wall.py. Real Ray
leaves processes behind when a run is killed (raylets, actor workers in their
own process groups), so every real-Ray run gets a private RAY_TMPDIR and, when
it ends, any process still carrying that RAY_TMPDIR in its environment is
killed: precise, and never touches another cluster.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "runner.py"
SCENARIO_DIR = HERE / "scenarios"
RECORDED = HERE / "recorded" / "ray-2.60.0.json"
RESULT_MARKER = "CONFORMANCE-RESULT "
# Generous: the slowest scenario takes ~25 s alone on 2 cores; a hang must not stall the suite.
TIMEOUT_S = 180


def scenario_names():
    """Every scenario module, slowest on real Ray first so two-at-a-time runs pack well.

    Durations come from the last recording; scenarios never recorded go first.
    """
    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.py") if not p.stem.startswith("_"))
    walls = _recorded_file().get("wall_s", {})
    return sorted(names, key=lambda n: -walls.get(n, float("inf")))


def recorded_only(name):
    """True for a scenario whose module says LIVE_ON_RAY = False: too slow to run on real Ray in
    every `make test` (it waits out timeouts and restarts), so only its recording is checked."""
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
    def ok(self):
        return self.observations is not None


def run_scenario(python, backend, scenario, workdir, timeout=TIMEOUT_S):
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
        _kill_group(proc.pid)
        output, _ = proc.communicate()
        timed_out = True
    finally:
        if ray_tmp:
            _kill_processes_with_env("RAY_TMPDIR", ray_tmp)
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


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _kill_processes_with_env(name, value):
    """SIGKILL every process whose environment has name=value (Linux /proc)."""
    needle = f"{name}={value}".encode()
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except ProcessLookupError:
                pass


def differences(expected, actual, path="$"):
    """Paths where two observation trees differ; keys starting with "_" are not compared."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual)):
            if key.startswith("_"):
                continue
            if key not in actual:
                out.append(f"{path}.{key}: only in the first ({expected[key]!r})")
            elif key not in expected:
                out.append(f"{path}.{key}: only in the second ({actual[key]!r})")
            else:
                out += differences(expected[key], actual[key], f"{path}.{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += differences(e, a, f"{path}[{i}]")
        return out
    return [] if expected == actual else [f"{path}: {expected!r} != {actual!r}"]


def mismatch_report(scenario, first_name, first, second_name, second, diffs):
    return "\n".join(
        [f"scenario {scenario}: {len(diffs)} difference(s) between {first_name} and {second_name}"]
        + ["  " + d for d in diffs]
        + [
            f"{first_name} observed:",
            json.dumps(first, indent=2, sort_keys=True),
            f"{second_name} observed:",
            json.dumps(second, indent=2, sort_keys=True),
        ]
    )


def _recorded_file():
    return json.loads(RECORDED.read_text()) if RECORDED.exists() else {}


def load_recorded():
    """Real Ray's recorded observations by scenario name."""
    return _recorded_file().get("scenarios", {})


def save_recorded(observations, walls):
    """Merge scenarios' observations and real-Ray wall times into the recording."""
    data = _recorded_file()
    data["ray"] = "2.60.0"
    data.setdefault("scenarios", {}).update(observations)
    data.setdefault("wall_s", {}).update(walls)
    RECORDED.parent.mkdir(exist_ok=True)
    RECORDED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def default_ray_python():
    return os.environ.get("RAY_PYTHON") or None


def this_python():
    return sys.executable
