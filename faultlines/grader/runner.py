"""Run one schedule of one scenario on a submission, and judge it by the exercise's invariants."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from miniray import sim
from miniray.exceptions import BudgetExceeded, Stalled

from . import sim_access
from .budgets import Counter, LearnerBudgetExceeded
from .exercise import Exercise
from .schedule import Boundaries, Schedule, split
from .submission import Submission
from .world import Ctx

PROGRESS = "progress"  # the built-in invariant: the goal is reached after the faults stop
BUDGET = "step-budget"
NO_ERROR = "runs-without-error"


@dataclass
class Outcome:
    schedule: Schedule
    violations: list[tuple[str, str]]  # (invariant name, concrete detail)
    fingerprint: str  # the run's state, fault records left out: equal means a duplicate state
    trace: str  # the full event log plus effects: equal on every execution of a deterministic run
    log: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    boundaries: Boundaries = field(default_factory=Boundaries)
    lines: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.violations)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def _judge(ex: Exercise, ctx: Ctx, value: Any) -> list[tuple[str, str]]:
    found = []
    for name, invariant in ex.checks.invariants.items():
        result = invariant(value, ctx)
        if not result:
            continue
        for detail in [result] if isinstance(result, str) else list(result):
            found.append((name, detail))
    return found


@dataclass
class Execution:
    """One schedule run and judged: the run itself (records, journals), its context, the verdict."""

    run: sim.Run
    ctx: Ctx
    violations: list[tuple[str, str]]


def execute(
    ex: Exercise,
    sub: Submission,
    scenario: str,
    schedule: Schedule,
    counter: Counter | None = None,
    listeners: tuple[Callable[[sim.Record], None], ...] = (),
    sites: bool = False,
) -> Execution:
    """Run `scenario` under `schedule` on `sub` and judge it. `listeners` hear every record of the
    scenario's cluster as it is logged, and `sites` keeps the journal's learner lines: both for
    the debugger, which shows which line of the learner's made each event happen."""
    faults, clients = split(schedule)
    counter = counter or sub.counter(ex.line_budget)
    ctx = Ctx(sub.module(), clients, ex.checks.second_client, {})
    ctx.faults = faults  # what this schedule injects, for invariants that depend on it
    ctx.listeners = list(listeners)
    body = ex.checks.scenarios[scenario]
    with counter.counting():
        run = sim_access.run_quiet(lambda: body(ctx.sub, ctx), faults, ex.max_events, sites)
    return Execution(run, ctx, _verdict(ex, ctx, run))


def _verdict(ex: Exercise, ctx: Ctx, run: sim.Run) -> list[tuple[str, str]]:
    violations: list[tuple[str, str]] = []
    value, error = run.value, run.error
    if isinstance(error, LearnerBudgetExceeded):
        violations.append((BUDGET, str(error)))
    elif isinstance(error, Stalled):
        violations.append((PROGRESS, "deadlock: " + str(error).splitlines()[0]))
    elif isinstance(error, BudgetExceeded):
        violations.append(
            (PROGRESS, f"starvation: the goal was not reached in time ({str(error).splitlines()[0]})")
        )
    elif error is not None:
        violations.append((NO_ERROR, f"the run raised {_first_line(error)}"))
    else:
        violations.extend(_judge(ex, ctx, value))
    return violations


def run_schedule(
    ex: Exercise, sub: Submission, scenario: str, schedule: Schedule, counter: Counter | None = None
) -> Outcome:
    counter = counter or sub.counter(ex.line_budget)
    done = execute(ex, sub, scenario, schedule, counter)
    run, ctx, violations = done.run, done.ctx, done.violations
    records = run.records
    log = [r.line() for r in records]
    effects = [e.line() for e in ctx.services.effects]
    state = "\n".join(line for r, line in zip(records, log) if r.kind != "fault") + "\n" + "\n".join(effects)
    boundaries = Boundaries()
    ctx.boundaries_into(boundaries, run)
    trace = "\n".join(log) + "\n--effects--\n" + "\n".join(effects) + f"\n--verdict--\n{violations!r}"
    return Outcome(
        schedule=schedule,
        violations=violations,
        fingerprint=hashlib.sha256(state.encode()).hexdigest()[:16],
        trace=trace,
        log=log,
        effects=effects,
        boundaries=boundaries,
        lines=counter.lines,
    )
