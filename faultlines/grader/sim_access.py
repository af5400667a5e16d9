"""The grader's way into a run: miniray.sim's public API, and nothing past it.

The grader runs hundreds of schedules and formats a log only for the one it reports, so it runs
scenarios with `sim.run(log_text=False)`, and reads the runtime a scenario built (its log records
and attempts) through `sim.last_runtime()`, which still answers when a learner's budget stopped
the run midway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniray import sim
from miniray.faults import Fault


def attempts(rt: Any) -> list[tuple[str, int]]:
    return list(rt.faults.attempts)


def last_runtime() -> Any:
    return sim.last_runtime()


def run_quiet(
    scenario: Callable[[], Any], faults: list[Fault], max_events: int
) -> tuple[Any, BaseException | None]:
    """One run of `scenario` under `faults`: (its value, the exception it raised or None)."""
    result = sim.run(scenario, seed=0, faults=faults, max_events=max_events, log_text=False)
    return result.value, result.error
