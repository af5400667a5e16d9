"""Conformance: the same scenario scripts on real Ray 2.60 and on miniray must observe the same.

Each scenario (scenarios/<name>.py) returns run counts, exception class names and
final states. Two checks per scenario:

* test_matches_real_ray: runs it on real Ray (RAY_PYTHON, the .venv-ray made by
  `make ray-venv`) and on miniray, and compares. Real-Ray runs start once the
  session is collected, one at a time on the idle core while the tests before
  these run (tests/session_background.py); any not started by the time the
  first of these tests asks run two at a time, as they would alone.
* test_matches_recorded_ray: compares miniray with recorded/ray-2.60.0.json (what
  real Ray observed when record.py last ran), so a miniray change can be
  checked in seconds without a Ray cluster.

miniray runs are deterministic (seed 0): a failure prints the command that replays it.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import session_background

from conformance.observations import differences, load_recorded, mismatch_report
from conformance.scenario_runs import recorded_only, run_scenario, scenario_names

SCENARIOS = scenario_names()
RAY_PARALLEL = 2  # 2 cores: two clusters at once overlap one's waits with the other's work

pytestmark = pytest.mark.conformance


def start_in_background(items, submit):
    """Each selected live scenario's real-Ray run, queued as soon as the session is collected."""
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python or not os.path.exists(ray_python):
        return  # the fixture says why, when a test asks
    for item in items:
        if item.originalname == "test_matches_real_ray":
            scenario = item.callspec.params["scenario"]
            if not recorded_only(scenario):
                where = session_background.scratch() / "ray" / scenario
                submit(f"ray:{scenario}", run_scenario, ray_python, "ray", scenario, where)


@pytest.fixture(scope="session")
def real_ray_runs(tmp_path_factory):
    """Futures of every scenario's real-Ray run: the background's, where it has started one,
    and the rest submitted at once, RAY_PARALLEL at a time."""
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        pytest.skip(
            "RAY_PYTHON is unset: `make test` sets it to .venv-ray/bin/python "
            "(ray==2.60.0, built by `make ray-venv`)"
        )
    if not os.path.exists(ray_python):
        pytest.fail(f"RAY_PYTHON={ray_python} does not exist: run `make ray-venv`")
    base = tmp_path_factory.mktemp("ray")
    pool = ThreadPoolExecutor(RAY_PARALLEL)
    futures = {}
    for name in SCENARIOS:
        if not recorded_only(name):
            started = session_background.claim(f"ray:{name}")
            futures[name] = started or pool.submit(run_scenario, ray_python, "ray", name, base / name)
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


def _miniray(scenario, tmp_path):
    result = run_scenario(sys.executable, "miniray", scenario, tmp_path / "miniray")
    assert result.ok, f"scenario {scenario} failed on miniray (replay: {result.command}):\n{result.output}"
    return result


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_matches_real_ray(scenario, real_ray_runs, tmp_path):
    if recorded_only(scenario):
        pytest.skip(f"{scenario} is checked against its recording only (LIVE_ON_RAY = False)")
    real = real_ray_runs[scenario].result()
    assert real.ok, f"scenario {scenario} failed on real Ray ({real.command}):\n{real.output}"
    mini = _miniray(scenario, tmp_path)
    print(f"{scenario}: real Ray {real.wall_s:.1f} s, miniray {mini.wall_s * 1000:.1f} ms")
    diffs = differences(real.observations, mini.observations)
    assert not diffs, (
        mismatch_report(scenario, "real Ray 2.60", real.observations, "miniray", mini.observations, diffs)
        + f"\nreplay miniray: {mini.command}"
    )


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_matches_recorded_ray(scenario, tmp_path):
    recorded = load_recorded().get(scenario)
    if recorded is None:
        pytest.skip(f"no recorded real-Ray observations for {scenario}: run tests/conformance/record.py")
    mini = _miniray(scenario, tmp_path)
    diffs = differences(recorded, mini.observations)
    assert not diffs, (
        mismatch_report(scenario, "recorded real Ray 2.60", recorded, "miniray", mini.observations, diffs)
        + f"\nreplay miniray: {mini.command}"
    )
