"""Run every scenario on real Ray and save the observations to recorded/ray-2.60.0.json.

    RAY_PYTHON=.venv-ray/bin/python .venv/bin/python tests/conformance/record.py [scenario ...]

Run it again when a scenario changes. It runs each scenario twice and refuses to
save observations that differ between the two runs: those would be timing, not
semantics, and would make the conformance tests flaky.
"""

import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from conformance.observations import differences, save_recorded
from conformance.scenario_runs import run_scenario, scenario_names


def main(argv):
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        raise SystemExit("set RAY_PYTHON to the python of a venv with ray==2.60.0 (make ray-venv)")
    wanted = argv[1:] or scenario_names()
    jobs = [(name, i) for i in (1, 2) for name in wanted]
    with tempfile.TemporaryDirectory(prefix="conformance-record-") as base, ThreadPoolExecutor(2) as pool:
        results = list(
            pool.map(lambda job: run_scenario(ray_python, "ray", job[0], f"{base}/{job[0]}-{job[1]}"), jobs)
        )
    by_name = {}
    for result in results:
        if not result.ok:
            raise SystemExit(f"{result.scenario} failed on real Ray:\n{result.output}")
        by_name.setdefault(result.scenario, []).append(result)
    unstable = False
    observations, walls = {}, {}
    for name, (first, second) in by_name.items():
        diffs = differences(first.observations, second.observations)
        if diffs:
            unstable = True
            print(f"{name}: real Ray disagreed with itself:\n  " + "\n  ".join(diffs))
        else:
            observations[name] = first.observations
            walls[name] = round(max(first.wall_s, second.wall_s), 1)
            print(f"{name}: {first.wall_s:.1f} s / {second.wall_s:.1f} s, stable")
    save_recorded(observations, walls)
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
