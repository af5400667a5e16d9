"""The debugger: a run as lanes you step through event by event, with the state at each event,
the learner's line that caused it, what-if re-runs and a passing run to compare with.

    model.py    the run's reading (faultlines/reading) stepped event by event: per-event states
    sites.py    code links: the learner's line behind each event, as the reading found it
    verdict.py  which invariant broke, and at which event (from the violation's data)
    compare.py  the passing run and the first event where the two differ
    recorded.py the reference's runs on the public fixed schedules, recorded as events
    session.py  where runs come from (an exercise's scenario, a Playground scenario) and re-runs
    whatif.py   a schedule with a fault removed or moved
    lanes.py    the lanes picture (the course's state chart, on the event axis)
    render.py   the view's HTML and the data the front end steps through
    widget.py   the notebook widget (ipywidgets for what-if, static/debugger.js for the cursor)
    page.py     the standalone offline page (replay --html)
    frontend.py where the front end comes from in each place
Design: docs/design/debugger.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from miniray import sim

from .session import ExerciseSource, RunSource, Snapshot, from_run

if TYPE_CHECKING:  # widget.py imports ipywidgets: only a notebook that shows a debugger needs it
    from .widget import Debugger

__all__ = ["ExerciseSource", "RunSource", "Snapshot", "debug", "for_failure"]


def debug(run: sim.Run, scenario: Any = None, title: str = "your run") -> Debugger:
    """A debugger for a finished `miniray.sim.run(...)`; with its `scenario`, what-if re-runs too."""
    from .widget import Debugger  # ipywidgets, only now (see the top)

    source = RunSource(scenario, seed=run.seed, name=title)
    return Debugger(source, from_run(run, title))


def for_failure(
    ex: Any, sub: Any, scenario: str, schedule: tuple[str, ...], invariant: str, reported: Any = None
) -> Debugger:
    """A debugger for one failing schedule of an exercise on the learner's submission: `reported`,
    the grader's journaled run of it (grader.runner.Outcome), is shown as it is; without it the
    schedule runs again."""
    from .widget import Debugger  # ipywidgets, only now (see the top)

    source = ExerciseSource(ex, sub, scenario, invariant)
    snap = source.snapshot(reported) if reported is not None else source.run(tuple(schedule))
    return Debugger(source, snap)
