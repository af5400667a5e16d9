"""Shrink a failing schedule to a minimal one that still breaks the same invariant.

Greedy one-at-a-time removal to a fixpoint: what is left is 1-minimal (dropping any single
move makes the failure go away or change). Breadth-first search already finds the shortest
failing schedule; this matters for random schedules, which carry moves that played no part.
"""

from __future__ import annotations

from collections.abc import Callable

from .runner import Outcome
from .schedule import Schedule


def shrink(failing: Outcome, run: Callable[[Schedule], Outcome]) -> tuple[Outcome, int]:
    """The smallest failing outcome found, and how many runs the shrinking took."""
    target = failing.violations[0][0]
    best = failing
    runs = 0
    changed = True
    while changed and best.schedule:
        changed = False
        for index in range(len(best.schedule)):
            candidate = best.schedule[:index] + best.schedule[index + 1 :]
            outcome = run(candidate)
            runs += 1
            if outcome.failed and outcome.violations[0][0] == target:
                best = outcome
                changed = True
                break
    return best, runs
