"""Running Ray's copied examples in subprocesses, and the recording of what real Ray did.

Used by test_ray_examples.py and record.py. Each run is a fresh process (`run_example.py`); a
real-Ray run gets a private RAY_TMPDIR and, when it ends, every process still carrying that
RAY_TMPDIR is killed (conformance.ray_processes, the conformance runs' clean-up).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DOC_CODE = HERE / "doc_code"
RUNNER = HERE / "run_example.py"
RECORDED = HERE / "recorded" / "ray-2.60.0.json"
RESULT_MARKER = "RAY-EXAMPLE-RESULT "
TIMEOUT_S = 240

from conformance.ray_processes import kill_group, kill_processes_with_env
from printed import printed_lines


def example_names() -> list[str]:
    return sorted(p.stem for p in DOC_CODE.glob("*.py"))


def example_path(name: str) -> Path:
    return DOC_CODE / f"{name}.py"


@dataclass
class ExampleRun:
    backend: str
    name: str
    verdict: dict | None  # {"passed": bool, "error"?: class name, "message"?: text}
    wall_s: float
    output: str
    command: str

    @property
    def passed(self) -> bool:
        return bool(self.verdict and self.verdict.get("passed"))

    @property
    def lines(self) -> list[str]:
        return printed_lines(self.output, RESULT_MARKER)


def run_example(python: str, backend: str, name: str, timeout: float = TIMEOUT_S) -> ExampleRun:
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    workdir = tempfile.mkdtemp(prefix=f"rayex-{name}-")
    ray_tmp = None
    if backend == "ray":
        ray_tmp = tempfile.mkdtemp(prefix="rx", dir="/tmp")  # short: Ray's socket paths live under it
        env["RAY_TMPDIR"] = ray_tmp
    cmd = [str(python), str(RUNNER), backend, str(example_path(name))]
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        output, _ = proc.communicate()
        output += f"\n[harness] killed after {timeout} s"
    finally:
        if ray_tmp:
            kill_processes_with_env("RAY_TMPDIR", ray_tmp)
            shutil.rmtree(ray_tmp, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    wall = time.perf_counter() - started
    verdict = None
    for line in output.splitlines():
        if line.startswith(RESULT_MARKER):
            verdict = json.loads(line[len(RESULT_MARKER) :])
    return ExampleRun(backend, name, verdict, wall, output[-6000:], " ".join(cmd))


RAY_TESTS = HERE / "ray_tests"
PYTEST_PACKAGES = ("pytest", "_pytest", "pluggy", "iniconfig", "pygments", "py.py")
OUTCOME_PLUGIN_DIR = REPO / "tests" / "pyodide"  # outcome_recorder: per-test outcomes as JSON


def run_ray_tests(python: str, backend: str, dev_site: str | None = None) -> tuple[dict, str]:
    """Run Ray's copied test files (ray_tests/) under pytest; return ({test id: outcome}, output).

    On real Ray the Ray venv has no pytest: pytest and its own packages are linked from the dev
    venv's site-packages (`dev_site`) into a folder put on PYTHONPATH, for the driver and for Ray's
    workers (which import the test module, hence pytest). Only those: Ray keeps its own packaging.
    """
    scratch = Path(tempfile.mkdtemp(prefix="rayex-tests-"))
    out = scratch / "outcomes.json"
    env = dict(os.environ, RAY_EXAMPLES_BACKEND=backend, RAY_USAGE_STATS_ENABLED="0")
    paths = [str(OUTCOME_PLUGIN_DIR)]
    if dev_site:
        pytest_only = scratch / "pytest-only"
        pytest_only.mkdir()
        for name in PYTEST_PACKAGES:
            if (Path(dev_site) / name).exists():
                (pytest_only / name).symlink_to(Path(dev_site) / name)
        # Ray's workers import the test module, whose first lines say `import miniray as ray`:
        # answer that with real Ray in every process of the run, as the conftest does in pytest's.
        (pytest_only / "sitecustomize.py").write_text(
            f"import sys\nsys.path.insert(0, {str(HERE)!r})\n"
            "from run_example import _MinirayIsRay\nsys.meta_path.insert(0, _MinirayIsRay())\n"
        )
        paths.append(str(pytest_only))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [*paths, env.get("PYTHONPATH")]))
    env.pop("RAY_ADDRESS", None)
    ray_tmp = None
    if backend == "ray":
        ray_tmp = env["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="rx", dir="/tmp")
    args = [
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "outcome_recorder",
        f"--outcomes-json={out}",
        str(RAY_TESTS),
    ]
    cmd = [python, "-m", "pytest", *args]
    try:
        # cwd: Ray's workers put the driver's current directory on their path, and they must import
        # the test module by name to run its remote functions.
        proc = subprocess.run(
            cmd, cwd=RAY_TESTS, env=env, capture_output=True, text=True, timeout=TIMEOUT_S * 3
        )
        output = proc.stdout + proc.stderr
    finally:
        if ray_tmp:
            kill_processes_with_env("RAY_TMPDIR", ray_tmp)
            shutil.rmtree(ray_tmp, ignore_errors=True)
    outcomes = json.loads(out.read_text())["outcomes"] if out.exists() else {}
    shutil.rmtree(scratch, ignore_errors=True)
    return outcomes, output[-6000:]


def load_recorded() -> dict:
    return json.loads(RECORDED.read_text()) if RECORDED.exists() else {}


def save_recorded(runs: list[ExampleRun]) -> None:
    data = load_recorded()
    data["ray"] = "2.60.0"
    for run in runs:
        data.setdefault("examples", {})[run.name] = dict(run.verdict or {}, lines=run.lines)
        data.setdefault("wall_s", {})[run.name] = round(run.wall_s, 1)
    RECORDED.parent.mkdir(exist_ok=True)
    RECORDED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
