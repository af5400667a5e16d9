"""Run Ray's copied examples on real Ray 2.60 and save each verdict to recorded/ray-2.60.0.json.

    RAY_PYTHON=.venv-ray/bin/python .venv/bin/python tests/ray_examples/record.py [example ...]

Run it again after copying a new example. Two run at a time (2 cores). Without arguments it also
runs Ray's copied test files (ray_tests/) on real Ray and saves each test's outcome.
"""

from __future__ import annotations

import json
import os
import site
import sys
from concurrent.futures import ThreadPoolExecutor

from examples_harness import RECORDED, example_names, run_example, run_ray_tests, save_recorded


def main(argv: list[str]) -> int:
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        raise SystemExit("set RAY_PYTHON to the python of a venv with ray==2.60.0 (make ray-venv)")
    wanted = argv[1:] or example_names()
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda name: run_example(ray_python, "ray", name), wanted))
    for run in runs:
        if run.verdict is None:
            raise SystemExit(f"{run.name}: no verdict from real Ray (crashed or timed out):\n{run.output}")
        print(
            f"{run.name}: {'passed' if run.passed else 'FAILED ' + run.verdict['error']} ({run.wall_s:.1f} s)"
        )
    save_recorded(runs)
    if not argv[1:]:  # everything: Ray's copied test files too
        record_ray_tests(ray_python)
    return 0


ENVIRONMENT_FAILURES = ("ModuleNotFoundError", "timed out during startup", "failed to import on the worker")


def record_ray_tests(ray_python: str) -> None:
    outcomes, output = run_ray_tests(ray_python, "ray", dev_site=site.getsitepackages()[0])
    broken = [sign for sign in ENVIRONMENT_FAILURES if sign in output]
    if not outcomes or broken:  # the environment failed, not Ray: that is no verdict to record
        raise SystemExit(f"Ray's test files did not run properly on real Ray ({broken}):\n{output}")
    data = json.loads(RECORDED.read_text())
    data["ray_tests"] = outcomes
    RECORDED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for test, outcome in sorted(outcomes.items()):
        print(f"{test}: {outcome}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
