"""What caching a task's traceback text saves a learner's check: fault08's full public check (its
reference raises in a task on most schedules), with the cache off and on, interleaved in one
process, as CPU time. Runs in this interpreter, then again in Pyodide under Node when it can.

    python bench/traceback_cache.py            # CPython, then Pyodide under Node
    python bench/traceback_cache.py --here     # this interpreter only
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import miniray.tracebacks as tracebacks  # noqa: E402
from faultlines.grader import exercise, grade, submission  # noqa: E402

EXERCISE = "fault08"
ROUNDS = 5


def measure() -> None:
    ex = exercise.load(EXERCISE)
    source = (REPO / "exercises" / EXERCISE / "reference.py").read_text()
    name = os.path.join(tempfile.gettempdir(), f"{EXERCISE}_reference.py")
    sub = submission.from_source(source, name, ex.entry, ex.line_budget)
    size = tracebacks._TRACEBACK_CACHE_SIZE
    grade.grade(ex, sub)  # warm imports and the exercise's own modules
    cpu: dict[int, list[float]] = {0: [], size: []}
    for _ in range(ROUNDS):
        for setting in (0, size):
            tracebacks._TRACEBACK_CACHE_SIZE = setting
            tracebacks._TRACEBACK_TEXT.clear()
            t0 = time.process_time()
            report = grade.grade(ex, sub)
            cpu[setting].append(time.process_time() - t0)
            assert report.passed, report
    tracebacks._TRACEBACK_CACHE_SIZE = size
    off, on = statistics.median(cpu[0]), statistics.median(cpu[size])
    print(
        f"Python {sys.version.split()[0]}: {EXERCISE} check, CPU median of {ROUNDS}: "
        f"cache off {off * 1e3:.0f} ms, on {on * 1e3:.0f} ms, ratio {on / off:.2f}"
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
    proc = pyodide_node.run("bench/traceback_cache.py", "--here", packages=("faultlines", "exercises"))
    print(proc.stdout.strip() or proc.stderr.strip()[-2000:])


if __name__ == "__main__":
    main()
