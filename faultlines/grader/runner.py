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
from .log_lines import SAID_BY_THE_FAULT, readable
from .schedule import Boundaries, Schedule, split
from .submission import BadSubmission, Submission
from .world import Ctx

PROGRESS = "progress"  # the built-in invariant: the goal is reached after the faults stop
BUDGET = "step-budget"
NO_ERROR = "runs-without-error"
# A fault striking, and what it did at once: left out of a run's state, so two schedules that
# strike at different moments but lead to the same run are one state to the search.
STRIKES = frozenset({"fault"}) | SAID_BY_THE_FAULT


@dataclass
class Outcome:
    schedule: Schedule
    violations: list[tuple[str, str]]  # (invariant name, concrete detail)
    fingerprint: str  # the run's state, fault records left out: equal means a duplicate state
    trace: str  # the full event log plus effects: equal on every execution of a deterministic run
    records: list[Any] = field(default_factory=list)  # the run's log records (miniray.sim.Record)
    effects: list[str] = field(default_factory=list)
    boundaries: Boundaries = field(default_factory=Boundaries)
    lines: int = 0
    evidence: frozenset[str] = frozenset()  # the checks' evidence that holds in this run
    journals: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # attempt -> (op, site)
    hidden: tuple[dict[str, tuple[str, ...]], tuple[str, ...]] = ({}, ())  # what `log` leaves out

    @property
    def failed(self) -> bool:
        return bool(self.violations)

    @property
    def log(self) -> list[str]:
        """The run's timeline as a report shows it (log_lines): formatted only when asked for."""
        return readable(self.records, *self.hidden)


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


def _evidence(ex: Exercise, value: Any, ctx: Ctx) -> frozenset[str]:
    return frozenset(name for name, holds in ex.checks.evidence.items() if holds(value, ctx))


def run_schedule(
    ex: Exercise,
    sub: Submission,
    scenario: str,
    schedule: Schedule,
    counter: Counter | None = None,
    sites: bool = False,
    listeners: tuple[Callable[[sim.Record], None], ...] = (),
) -> Outcome:
    """One run on a fresh load of the submission: nothing an earlier run did is seen here.
    `sites`: journal the learner's file:line of each call (for a run that is reported).
    `listeners` hear each record of the scenario's cluster as it is logged (the debugger notes
    which line of the learner's made it)."""
    counter = counter or sub.counter(ex.line_budget)
    try:
        with sub.load() as module:
            return _run(ex, module, scenario, schedule, counter, sites, listeners)
    except BadSubmission as e:  # a load that worked once failed now: say so, as a broken run
        return Outcome(schedule, [(NO_ERROR, f"loading your code again raised: {e}")], "", str(e))


def _run(
    ex: Exercise,
    module: Any,
    scenario: str,
    schedule: Schedule,
    counter: Counter,
    sites: bool,
    listeners: tuple[Callable[[sim.Record], None], ...] = (),
) -> Outcome:
    faults, clients = split(schedule)
    ctx = Ctx(module, clients, ex.checks.second_client, {})
    ctx.faults = faults  # what this schedule injects, for invariants that depend on it
    ctx.listeners = list(listeners)
    body = ex.checks.scenarios[scenario]
    violations: list[tuple[str, str]] = []
    with counter.counting():
        run = sim_access.run_quiet(lambda: body(ctx.sub, ctx), faults, ex.max_events, sites)
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
    if error is not None:
        value = None  # evidence reads None: the run ended without an outcome
    records = run.records
    log = [r.line() for r in records]
    effects = [e.line() for e in ctx.services.effects]
    state = (
        "\n".join(line for r, line in zip(records, log) if r.kind not in STRIKES) + "\n" + "\n".join(effects)
    )
    boundaries = Boundaries()
    ctx.boundaries_into(boundaries, run)
    trace = "\n".join(log) + "\n--effects--\n" + "\n".join(effects) + f"\n--verdict--\n{violations!r}"
    return Outcome(
        schedule=schedule,
        violations=violations,
        fingerprint=hashlib.sha256(state.encode()).hexdigest()[:16],
        trace=trace,
        records=records,
        effects=effects,
        boundaries=boundaries,
        lines=counter.lines,
        evidence=_evidence(ex, value, ctx) if violations else frozenset(),
        journals=run.journals if violations or sites else {},
        hidden=(ex.checks.hidden_fields, ex.checks.hidden_kinds),
    )
