"""Ray's own fault-tolerance examples (doc_code/, copied unchanged but for the import) on miniray.

A learner who copies one of these from Ray's documentation into the lab, changing only the
import, should see what Ray shows. For every example:

* test_runs_on_miniray: it runs to its end on miniray wherever it did on real Ray 2.60 (the
  recording), and the lines it prints that a learner reads (RAY_LINES below, taken from Ray's
  recorded output) appear in miniray's output too.
* test_matches_live_ray: the quick ones run on real Ray as well, now, and must pass there too
  (the rest take 20 s to 2 min each on real Ray, so the recording stands in for them:
  `tests/ray_examples/record.py` makes it).
* test_ray_test_files_pass_where_they_pass_on_ray: Ray's own test files copied to ray_tests/
  (run there on miniray by pytest like any test here, with Ray's fixtures from its conftest):
  every test that passed on real Ray, as recorded, passes on miniray.
* test_copies_are_unchanged: each copy is Ray's file plus our header, with only its Ray import
  lines changed.
"""

from __future__ import annotations

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from examples_harness import (  # noqa: E402
    example_names,
    example_path,
    load_recorded,
    run_example,
    run_ray_tests,
)

EXAMPLES = example_names()
# Quick enough on real Ray to run live in `make test`, and deterministic there (the others use the
# recording: they take minutes, or what they print depends on Ray's timing, like
# actor_creator_failure's "actor.ping: hello", answered before Ray notices the owner died).
LIVE_ON_RAY = ["task_exceptions"]

# Lines Ray 2.60 printed (recorded, pids and ids masked) that miniray must print too.
RAY_LINES = {
    "actor_checkpointing": ["Actor crashes, restarting..."],
    # Ray answers a call made right after the owner's death; the actor dies a moment later.
    "actor_creator_failure": ["actor.ping: hello", "detached_actor.ping: hello"],
    "actor_restart": ["10", "FAILURE"],
    "actors": [
        "Object reference was cancelled.",
        "(Actor pid=N) Actor task canceled.",
        "Actor task was cancelled",
        "Actor detected cancellation: False",
    ],
    "fault_tolerance_tips": ["1"],
    "placement_group_example": [
        "Cannot create a placement group because {'GPU': 2} bundle cannot be created.",
        "Get timed out: some object(s) not ready.",
    ],
    "streaming_generator": [
        "timeout 0, nothing is ready.",
        "Wait for 5 seconds. The next item is ready.",
        "Wait for 0 seconds. The next item is not ready.",
    ],
    "task_exceptions": [
        "  At least one of the input arguments for this task could not be computed:",
        "Exception: the real error",
        "MyException: a user exception",
        "MyFinalException: a *final* user exception",
        "<class '__main__.MyFinalException'>",
        "a *final* user exception",
    ],
    "tasks": ["Object reference was cancelled."],
}

# Examples that do not pass on miniray yet, with the gap named: strict, so a fix is noticed.
MINIRAY_XFAIL: dict[str, str] = {}

HEADER_END = "# --- end of Fault Lines header ---\n"
IMPORT_LINE = re.compile(r"^\s*(import miniray as ray|from miniray(\.\w+)* import )")


@pytest.fixture(scope="module")
def recorded():
    data = load_recorded().get("examples", {})
    if not data:
        pytest.fail("no recording of Ray's examples: run tests/ray_examples/record.py with RAY_PYTHON set")
    return data


@pytest.fixture(scope="module")
def live_ray_runs():
    """Futures of the live real-Ray runs, started together, two at a time."""
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        pytest.skip("RAY_PYTHON is unset: `make test` sets it to .venv-ray/bin/python (ray==2.60.0)")
    pool = ThreadPoolExecutor(2)
    futures = {name: pool.submit(_run_on_ray, ray_python, name) for name in LIVE_ON_RAY}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


def _run_on_ray(ray_python: str, name: str):
    """One live run; again once if Ray itself could not start (a busy machine), which says
    nothing about the example."""
    run = run_example(ray_python, "ray", name)
    if not run.passed and "timed out during startup" in (run.verdict or {}).get("message", ""):
        run = run_example(ray_python, "ray", name)
    return run


@pytest.mark.parametrize("name", EXAMPLES)
def test_runs_on_miniray(name, recorded):
    if name in MINIRAY_XFAIL:
        pytest.xfail(MINIRAY_XFAIL[name])
    ray = recorded.get(name)
    assert ray is not None, f"{name} has no recording: run tests/ray_examples/record.py {name}"
    mini = run_example(sys.executable, "miniray", name)
    assert mini.verdict is not None, f"{name} crashed on miniray ({mini.command}):\n{mini.output}"
    if ray["passed"]:
        assert mini.passed, (
            f"{name} runs to its end on real Ray 2.60 but stops on miniray with "
            f"{mini.verdict.get('error')}: {mini.verdict.get('message')}\nreplay: {mini.command}\n{mini.output}"
        )
    missing = [line for line in RAY_LINES.get(name, []) if line not in mini.lines]
    assert not missing, (
        f"{name}: lines real Ray printed are missing on miniray: {missing}\n"
        f"miniray printed:\n" + "\n".join(mini.lines) + f"\nreplay: {mini.command}"
    )
    print(f"{name}: real Ray {'passed' if ray['passed'] else 'failed'}, miniray {mini.wall_s:.2f} s")


@pytest.mark.parametrize("name", EXAMPLES)
def test_ray_lines_come_from_the_recording(name, recorded):
    """The RAY_LINES above are what real Ray printed, not what we wished it printed."""
    lines = recorded[name].get("lines", [])
    missing = [line for line in RAY_LINES.get(name, []) if line not in lines]
    assert not missing, f"{name}: {missing} not in real Ray's recorded output:\n" + "\n".join(lines)


@pytest.mark.conformance
@pytest.mark.parametrize("name", LIVE_ON_RAY)
def test_matches_live_ray(name, live_ray_runs, recorded):
    real = live_ray_runs[name].result()
    assert real.verdict is not None, f"{name} crashed on real Ray ({real.command}):\n{real.output}"
    assert real.passed == recorded[name]["passed"], f"{name}: real Ray now disagrees with its recording"
    missing = [line for line in RAY_LINES.get(name, []) if line not in real.lines]
    assert not missing, f"{name}: real Ray no longer prints {missing}:\n{real.output}"


@pytest.mark.parametrize("name", EXAMPLES)
def test_copies_are_unchanged(name):
    text = example_path(name).read_text()
    header, sep, body = text.partition(HEADER_END)
    assert sep, f"{name}: the license and origin header is missing"
    assert "Apache License, Version 2.0" in header and "github.com/ray-project/ray/blob/" in header
    changed = [line for line in body.splitlines() if "miniray" in line]
    assert changed and all(IMPORT_LINE.match(line) for line in changed), (
        f"{name}: only import lines may differ from Ray's file, found: {changed}"
    )
    assert Path(example_path(name).parent, "LICENSE").exists()


def test_ray_test_files_pass_where_they_pass_on_ray():
    ray_outcomes = load_recorded().get("ray_tests")
    assert ray_outcomes, "no recorded outcomes of ray_tests/ on real Ray: run tests/ray_examples/record.py"
    mini, output = run_ray_tests(sys.executable, "miniray")
    assert mini, f"ray_tests/ did not run on miniray:\n{output}"
    assert set(mini) == set(ray_outcomes), "the recording is of other tests than ray_tests/ holds now"
    worse = {t: (o, mini[t]) for t, o in ray_outcomes.items() if o == "passed" and mini[t] != "passed"}
    assert not worse, f"passed on real Ray, not on miniray (Ray, miniray): {worse}\n{output}"
    print("ray_tests on real Ray:", ray_outcomes, "\non miniray:", mini)


@pytest.mark.parametrize(
    "path", sorted(Path(__file__).parent.glob("ray_tests/test_*.py")), ids=lambda p: p.name
)
def test_copied_test_files_are_unchanged(path):
    body = path.read_text().partition(HEADER_END)[2]
    assert body, f"{path.name}: the license and origin header is missing"
    changed = [line for line in body.splitlines() if "miniray" in line]
    assert changed and all(IMPORT_LINE.match(line) for line in changed), changed
