"""Run Ray's copied examples on real Ray 2.60 and save each verdict to recorded/ray-2.60.0.json.

    RAY_PYTHON=.venv-ray/bin/python .venv/bin/python tests/ray_examples/record.py [example ...]

Run it again after copying a new example. Two run at a time (2 cores).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

from examples_harness import example_names, run_example, save_recorded


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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
