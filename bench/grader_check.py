"""What a learner waits for: a full public check() of each exercise, against one clean replay.

For each exercise, grades its reference solution (the worst case: a passing solution makes the
search run to its bound) and times it, beside the time of one clean run of the same scenario
measured in the same process; the ratio is about the number of schedules run. With node and
node_modules/pyodide present it runs itself again inside Pyodide under Node and prints those
figures too (a stand-in for the browser, which runs the same Pyodide).

    python bench/grader_check.py            # CPython, then Pyodide under Node
    python bench/grader_check.py --here     # this interpreter only
"""

from __future__ import annotations

import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from faultlines.grader import exercise, grade, submission  # noqa: E402
from faultlines.grader.runner import run_schedule  # noqa: E402


def measure() -> None:
    clock = time.perf_counter  # the host clock, outside any simulated run
    where = f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})"
    print(f"--- {where}")
    print(f"{'exercise':<9} {'schedules':>9} {'check (median of 3)':>20} {'clean run':>11} {'ratio':>7}")
    for ex_id in exercise.exercise_ids():
        ex = exercise.load(ex_id)
        sub = submission.from_file(ex.reference_path, ex.entry, ex.line_budget)
        checks, report = [], None
        for _ in range(3):
            t0 = clock()
            report = grade.grade(ex, sub)
            checks.append(clock() - t0)
        scenario = ex.tiers[0].runs[0][0] if ex.tiers[0].runs else ex.tiers[0].scenario
        cleans = []
        for _ in range(10):
            t0 = clock()
            run_schedule(ex, sub, scenario, ())
            cleans.append(clock() - t0)
        check, clean = statistics.median(checks), statistics.median(cleans)
        assert report is not None and report.passed
        print(
            f"{ex_id:<9} {report.schedules:>9} {check * 1000:>17.0f} ms {clean * 1000:>8.2f} ms {check / clean:>7.0f}"
        )


def main() -> None:
    measure()
    if "--here" in sys.argv:
        return
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules/pyodide/pyodide.mjs").exists():
        print("Pyodide: skipped (needs node and node_modules/pyodide: make node-deps)")
        return
    proc = subprocess.run(
        [
            node,
            "pyodide_node/run_script.mjs",
            "--with",
            "faultlines",
            "--with",
            "exercises",
            "bench/grader_check.py",
            "--here",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    print(proc.stdout.strip() or proc.stderr[-2000:])


if __name__ == "__main__":
    main()
