"""Wall time of the conformance scenarios on real Ray 2.60 against miniray, from one run.

Each scenario runs once per backend, one at a time (no overlap, so neither
backend competes with the other for the 2 cores), through the same runner the
conformance tests use. Two figures per backend:

* scenario time: the scenario's run() alone (cluster start-up, faults, waits);
* process time: the whole subprocess, interpreter start and imports included.

    RAY_PYTHON=.venv-ray/bin/python .venv/bin/python bench/conformance_wall.py [--json] [scenario ...]
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from conformance.observations import differences
from conformance.scenario_runs import run_scenario, scenario_names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    args = parser.parse_args(argv)
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        raise SystemExit("set RAY_PYTHON to the python of the ray==2.60.0 venv (make ray-venv)")
    names = args.scenarios or scenario_names()
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix="conformance-wall-") as base:
            real = run_scenario(ray_python, "ray", name, Path(base) / "ray")
            mini = run_scenario(sys.executable, "miniray", name, Path(base) / "miniray")
        for r in (real, mini):
            if not r.ok:
                raise SystemExit(f"{name} failed on {r.backend}:\n{r.output}")
        rows.append(
            {
                "scenario": name,
                "ray_s": round(real.wall_s, 3),
                "miniray_s": round(mini.wall_s, 5),
                "ray_process_s": round(real.process_s, 3),
                "miniray_process_s": round(mini.process_s, 3),
                "observations_match": not differences(real.observations, mini.observations),
            }
        )
    total = {k: sum(r[k] for r in rows) for k in ("ray_s", "miniray_s", "ray_process_s", "miniray_process_s")}
    result = {
        "benchmark": "conformance_wall",
        "scenarios": rows,
        "total": {k: round(v, 4) for k, v in total.items()},
        "ratio_scenario_time_ray_over_miniray": round(total["ray_s"] / total["miniray_s"]),
        "ratio_process_time_ray_over_miniray": round(total["ray_process_s"] / total["miniray_process_s"], 1),
    }
    if args.json:
        print(json.dumps(result))
        return result
    print(f"{'scenario':28} {'real Ray s':>10} {'miniray ms':>10} {'ratio':>8}   process s (Ray / miniray)")
    for r in rows:
        mark = "" if r["observations_match"] else "  MISMATCH"
        print(
            f"{r['scenario']:28} {r['ray_s']:10.2f} {r['miniray_s'] * 1000:10.1f} "
            f"{r['ray_s'] / r['miniray_s']:8.0f}   {r['ray_process_s']:.1f} / {r['miniray_process_s']:.2f}{mark}"
        )
    print(
        f"{'total':28} {total['ray_s']:10.2f} {total['miniray_s'] * 1000:10.1f} "
        f"{result['ratio_scenario_time_ray_over_miniray']:8}   "
        f"{total['ray_process_s']:.1f} / {total['miniray_process_s']:.2f}"
    )
    print(
        f"ratio real Ray / miniray: {result['ratio_scenario_time_ray_over_miniray']}x on scenario time, "
        f"{result['ratio_process_time_ray_over_miniray']}x on whole processes"
    )
    return result


if __name__ == "__main__":
    main()
