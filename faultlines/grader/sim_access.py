"""The grader's way into a run: miniray.sim's public API, and nothing past it.

The grader runs hundreds of schedules and formats a log only for the one it reports, so it runs
scenarios with `sim.run(log_text=False)`; the `Run` it gets back carries the records, the
attempts and the choice points, even when a learner's budget stopped the run midway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniray import sim

from .budgets import LearnerBudgetExceeded


def run_quiet(
    scenario: Callable[[], Any], faults: list[sim.Fault], max_events: int, sites: bool = False
) -> sim.Run:
    """One run of `scenario` under `faults`. A spent learner budget ends it like an error does.
    `sites`: note the learner's file:line of each call in the journals (a reported run's moves
    name them), which a search's hundreds of runs go without."""
    return sim.run(
        scenario,
        seed=0,
        faults=faults,
        max_events=max_events,
        log_text=False,  # the log's text and the journal's code sites only for a run reported
        journal_sites=sites,
        stop_on=(LearnerBudgetExceeded,),
    )
