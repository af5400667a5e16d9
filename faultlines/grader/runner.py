"""Run one schedule of one scenario on a submission, and judge it by the exercise's invariants."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from faultlines.reading import Broken, Reading, SiteRecorder, Violation
from faultlines.reading.violations import broken_of, named
from miniray import sim
from miniray.exceptions import BudgetExceeded, Stalled

from . import sim_access
from .budgets import Counter, LearnerBudgetExceeded
from .exercise import Exercise, ExerciseError
from .log_lines import readable
from .schedule import Boundaries, Schedule, split
from .submission import BadSubmission, Submission
from .world import Ctx

PROGRESS = "progress"  # the built-in invariant: the goal is reached after the faults stop
BUDGET = "step-budget"
NO_ERROR = "runs-without-error"


@dataclass
class Outcome:
    schedule: Schedule
    # (invariant name, concrete detail): each a reading.Violation, which carries what the run
    # shows of it (where it broke, the attempts that broke it)
    violations: list[tuple[str, str]]
    fingerprint: str  # the run's state, fault records left out: equal means a duplicate state
    trace: str  # the full event log plus effects: equal on every execution of a deterministic run
    # The run read once (faultlines/reading): its records, schedule and journals; every view of the
    # run (the report's timeline, its moves in words, the class map's form, the debugger) asks it.
    reading: Reading = field(default_factory=lambda: Reading([]))
    effects: list[str] = field(default_factory=list)
    boundaries: Boundaries = field(default_factory=Boundaries)
    lines: int = 0
    evidence: frozenset[str] = frozenset()  # the checks' evidence that holds in this run
    hidden: tuple[dict[str, tuple[str, ...]], tuple[str, ...]] = ({}, ())  # what `log` leaves out
    sites: dict[int, str] = field(default_factory=dict)  # record index -> the learner's file:line

    @property
    def failed(self) -> bool:
        return bool(self.violations)

    @property
    def records(self) -> list[Any]:
        """The run's log records (miniray.sim.Record), in order."""
        return list(self.reading.records)

    @property
    def journals(self) -> dict[str, list[tuple[str, str]]]:
        """Each attempt's calls to the cluster, as (op, site): kept for a failing or reported run."""
        return self.reading.journals

    @property
    def log(self) -> list[str]:
        """The run's timeline as a report shows it (log_lines): formatted only when asked for."""
        return readable(self.reading, *self.hidden)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def _judge(ex: Exercise, ctx: Ctx, value: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name, invariant in ex.checks.invariants.items():
        for violation in named(name, invariant(value, ctx)):
            unknown = violation.broken.evidence - ex.checks.given_evidence
            if unknown:  # the exercise's own mistake: a hint could never be checked against it
                raise ExerciseError(
                    f"invariant {name!r} gives evidence {sorted(unknown)} it does not declare: "
                    f'@checks.invariant("{name}", evidence=...)'
                )
            found.append(violation)
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
    `sites`: note the learner's file:line of each call, in the journals and of each record a call
    made (for a run that is reported: its moves name them, the debugger links its events).
    `listeners` hear each record of the scenario's cluster as it is logged (the debugger notes
    which line of the learner's made it)."""
    counter = counter or sub.counter(ex.line_budget)
    try:
        with sub.load() as module:
            return _run(ex, module, scenario, schedule, counter, sub.files if sites else None, listeners)
    except BadSubmission as e:  # a load that worked once failed now: say so, as a broken run
        return Outcome(schedule, [Violation(NO_ERROR, f"loading your code again raised: {e}")], "", str(e))


def _run(
    ex: Exercise,
    module: Any,
    scenario: str,
    schedule: Schedule,
    counter: Counter,
    learner_files: set[str] | None,
    listeners: tuple[Callable[[sim.Record], None], ...] = (),
) -> Outcome:
    sites = learner_files is not None
    faults, clients = split(schedule)
    ctx = Ctx(module, clients, ex.checks.second_client, {})
    ctx.faults = faults  # what this schedule injects, for invariants that depend on it
    ctx.streams = dict(ex.checks.streams)
    recorder = SiteRecorder(learner_files or ())
    ctx.listeners = [*listeners, recorder] if sites else list(listeners)
    body = ex.checks.scenarios[scenario]
    with counter.counting():
        run = sim_access.run_quiet(lambda: body(ctx.sub, ctx), faults, ex.max_events, sites)
    value, error = run.value, run.error
    ctx.journals = run.journals  # for evidence: which of Ray's calls each attempt made, in order
    violations = _verdict(ex, ctx, run)
    if error is not None:
        value = None  # evidence reads None: the run ended without an outcome
    records = run.records
    log = [r.line() for r in records]
    effects = [e.line() for e in ctx.services.effects]
    # A passing run's journals go: a search remembers hundreds of its runs.
    reading = Reading(records, schedule, run.journals if violations or sites else {}, run.virtual_time)
    state = "\n".join(reading.unstruck_lines(log)) + "\n" + "\n".join(effects)
    boundaries = Boundaries()
    ctx.boundaries_into(boundaries, run)
    trace = "\n".join(log) + "\n--effects--\n" + "\n".join(effects) + f"\n--verdict--\n{violations!r}"
    evidence = _evidence(ex, value, ctx) if violations else frozenset()
    return Outcome(
        schedule=schedule,
        violations=violations,
        fingerprint=hashlib.sha256(state.encode()).hexdigest()[:16],
        trace=trace,
        reading=reading,
        effects=effects,
        boundaries=boundaries,
        lines=counter.lines,
        evidence=evidence.union(*(broken_of(v).evidence for v in violations)),
        hidden=(ex.checks.hidden_fields, ex.checks.hidden_kinds),
        sites=recorder.sites,
    )


def _verdict(ex: Exercise, ctx: Ctx, run: sim.Run) -> list[tuple[str, str]]:
    """The run's broken invariants: the grader's own when the run did not end well, else the
    exercise's."""
    error = run.error
    if isinstance(error, LearnerBudgetExceeded):
        # An exercise that asks the learner's code again and again (a policy) may name what its
        # answers broke: a hot loop of answers is that invariant's failure, not a loop's.
        hook = ex.checks.on_budget
        found = [v for v in hook(ctx) if v is not None] if hook is not None else []
        return found or [Violation(BUDGET, str(error))]
    if isinstance(error, Stalled):
        return [Violation(PROGRESS, "deadlock: " + str(error).splitlines()[0])]
    if isinstance(error, BudgetExceeded):
        why = f"starvation: the goal was not reached in time ({str(error).splitlines()[0]})"
        return [Violation(PROGRESS, why)]
    if error is not None:  # the scenario raised: it broke where Ray gave up (its last final failure)
        return [Violation(NO_ERROR, Broken(f"the run raised {_first_line(error)}", final=True))]
    return _judge(ex, ctx, run.value)
