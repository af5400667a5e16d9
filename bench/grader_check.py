"""What a learner waits for: a full public check() of each exercise, against one clean replay.

For each exercise, grades its reference solution (the worst case: a passing solution makes the
search run to its bound) and times it, beside the time of one clean run of the same scenario
measured in the same process; the ratio is about the number of schedules run. With node and
node_modules/pyodide present it runs itself again inside Pyodide under Node and prints those
figures too, and with a built site (site/) and playwright, the same in real Chromium, in the
lab's own kernel (bench/grader_check_browser.py, which also times the first check after a warm
kernel start). Wall-clock figures: on a shared machine, read them beside the load average.

    python bench/grader_check.py            # CPython, Pyodide under Node, Chromium
    python bench/grader_check.py --here     # this interpreter only
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from faultlines.grader import exercise  # noqa: E402


def time_check(ex_id: str, source: str, repeats: int = 3) -> dict:
    """A full public check of `source` (median of `repeats`) and one clean run of its first
    scenario (median of 10), in seconds. Self-contained: the browser benchmark sends this
    function's source to the lab's kernel, so all three interpreters time the same code."""
    import os
    import statistics
    import tempfile
    import time

    from faultlines.grader import exercise, grade, submission
    from faultlines.grader.runner import run_schedule

    clock = time.perf_counter  # the host clock, outside any simulated run
    ex = exercise.load(ex_id)
    # An absolute name, as a notebook cell's is: traceback formatting (a task that raises) looks a
    # relative one up along sys.path, and in the lab that includes the contents drive, where each
    # lookup is a request to the page.
    name = os.path.join(tempfile.gettempdir(), f"{ex_id}_reference.py")
    sub = submission.from_source(source, name, ex.entry, ex.line_budget)
    checks, report = [], None
    for _ in range(repeats):
        t0 = clock()
        report = grade.grade(ex, sub)
        checks.append(clock() - t0)
    assert report is not None and report.passed
    scenario = ex.tiers[0].runs[0][0] if ex.tiers[0].runs else ex.tiers[0].scenario
    cleans = []
    for _ in range(10):
        t0 = clock()
        run_schedule(ex, sub, scenario, ())
        cleans.append(clock() - t0)
    return {
        "schedules": report.schedules,
        "check_s": statistics.median(checks),
        "clean_s": statistics.median(cleans),
    }


def measure() -> None:
    where = f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})"
    load = ""
    if sys.platform != "emscripten":  # Pyodide answers a made-up load average
        load = f", load average {os.getloadavg()[0]:.1f}"
    print(f"--- {where}{load}")
    print(f"{'exercise':<9} {'schedules':>9} {'check (median of 3)':>20} {'clean run':>11} {'ratio':>7}")
    for ex_id in exercise.exercise_ids():
        source = (exercise.folder_of(ex_id) / "reference.py").read_text(encoding="utf-8")
        row = time_check(ex_id, source)
        check, clean = row["check_s"], row["clean_s"]
        print(
            f"{ex_id:<9} {row['schedules']:>9} {check * 1000:>17.0f} ms {clean * 1000:>8.2f} ms {check / clean:>7.0f}"
        )


def main() -> None:
    measure()
    if "--here" in sys.argv:
        return
    # Imported here: the same script also runs inside Pyodide, where this host-side helper is absent.
    import pyodide_node

    why = pyodide_node.missing()
    if why:
        print(f"Pyodide: skipped ({why})")
        return
    proc = pyodide_node.run("bench/grader_check.py", "--here", packages=("faultlines", "exercises"))
    print(proc.stdout.strip() or proc.stderr[-2000:])
    if (REPO / "site/lite/static/pyodide/pyodide-lock.json").is_file():
        browser = subprocess.run(
            [sys.executable, "bench/grader_check_browser.py"], cwd=REPO, capture_output=True, text=True
        )
        print(browser.stdout.strip() or browser.stderr[-2000:])
    else:
        print("Chromium: skipped (needs the built site: make site browser-deps)")


if __name__ == "__main__":
    main()
