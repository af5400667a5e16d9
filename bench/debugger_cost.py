"""The debugger's Python cost in CPython, against the plain text report of the same check.

The same 199-event failing run as bench/debugger_browser.py (which times the whole thing in the
site's lab): fault00 with 43 extra tasks before the pipeline. Medians of --repeats:
- the report: grade() and its plain text rendering, what check() did before the debugger;
- opening the debugger on its own (a replay): the failing schedule run again with code links, the
  passing run found (one more run), the model folded and the view rendered;
- a failing check() with its debugger: grade() keeps its journaled run of the failure
  (`grade.Runs.reported`) and the debugger opens on it, so only the passing run is run;
- a what-if: the schedule without its fault run, folded and rendered (what a click does).

    .venv/bin/python bench/debugger_cost.py [--repeats 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.debugger_browser import DEBUG_200  # noqa: E402
from faultlines.debugger import render, session  # noqa: E402
from faultlines.grader import exercise, grade, render_text, submission  # noqa: E402


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    ex = exercise.load("fault00")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long_run.py"
        path.write_text(DEBUG_200)
        sub = submission.from_file(path, ex.entry, ex.line_budget)
        failure = grade.grade(ex, sub).first_failure
        assert failure is not None
        schedule = tuple(failure.schedule)

        def report() -> None:
            render_text.render(grade.grade(ex, sub))

        def open_debugger() -> None:
            source = session.ExerciseSource(ex, sub, failure.scenario, failure.invariant)
            snap = source.run(schedule)
            render.head(snap) + render.view(snap, session.passing_run(source, snap))

        def check_with_debugger() -> None:
            runs = grade.Runs(ex, sub)
            found = grade.grade(ex, sub, runs=runs).first_failure
            assert found is not None
            source = session.ExerciseSource(ex, sub, found.scenario, found.invariant)
            snap = source.snapshot(runs.reported[(found.scenario, tuple(found.schedule))])
            render.head(snap) + render.view(snap, session.passing_run(source, snap))

        source = session.ExerciseSource(ex, sub, failure.scenario, failure.invariant)
        passing = session.passing_run(source, source.run(schedule))

        def what_if() -> None:
            snap = source.run(())
            render.head(snap) + render.view(snap, passing)

        events = len(source.run(schedule).model.events)
        base = _median_ms(report, args.repeats)
        opened = _median_ms(open_debugger, args.repeats)
        checked = _median_ms(check_with_debugger, args.repeats)
        rerun = _median_ms(what_if, args.repeats)
    print(
        f"--- CPython {sys.version.split()[0]}, fault00, a failing run of {events} events, medians of {args.repeats}"
    )
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'the report: grade() and its text':<40} {base:8.1f} ms")
    print(f"{'opening the debugger (a replay)':<40} {opened:8.1f} ms  {opened / base:5.2f}x")
    print(f"{'a failing check() with its debugger':<40} {checked:8.1f} ms  {checked / base:5.2f}x")
    print(f"{'a what-if (remove the fault)':<40} {rerun:8.1f} ms  {rerun / base:5.2f}x")


if __name__ == "__main__":
    main()
