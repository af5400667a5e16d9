"""Where the debugger's runs come from, and how one is run again with another schedule.

A Source runs one schedule and returns a Snapshot: the run's reading as the debugger steps it
(model.py), with code links (sites.py), its verdict and the moment it broke (verdict.py). Two
sources:
- ExerciseSource: an exercise's scenario on the learner's submission, judged by its invariants,
  through the grader's runner. The run check() reported is not run again: the grader's
  journaled re-run of it (`grade.Runs.reported`) becomes the first snapshot (`snapshot`);
- RunSource: a scenario function the learner runs with `miniray.sim.run` in the Playground,
  with nothing to judge it by but whether it raised.
Both are deterministic: the same schedule gives the same snapshot, which is what makes "what
if" an honest experiment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from faultlines.grader import runner
from faultlines.grader.exercise import Exercise
from faultlines.grader.schedule import is_client
from faultlines.grader.submission import Submission
from faultlines.reading import Broken, Reading, Violation
from miniray import sim

from . import recorded, sites
from .compare import Passing, find_passing
from .model import Model, of_reading, outcome_of
from .verdict import Moment, Verdict, moment_of

Schedule = tuple[str, ...]


@dataclass
class Snapshot:
    schedule: Schedule
    model: Model
    verdict: Verdict
    moment: Moment | None = None
    title: str = ""


class Source(Protocol):
    @property
    def can_rerun(self) -> bool: ...

    @property
    def title(self) -> str: ...

    def run(self, schedule: Schedule) -> Snapshot: ...

    def recorded(self, schedule: Schedule) -> Model | None: ...


def _snapshot(schedule: Schedule, model: Model, verdict: Verdict, title: str) -> Snapshot:
    return Snapshot(schedule, model, verdict, moment_of(model, verdict), title)


@dataclass
class ExerciseSource:
    ex: Exercise
    sub: Submission
    scenario: str
    watched: str  # the invariant check() reported broken
    can_rerun: bool = True
    runs: int = field(default=0)  # how many runs this source made (the benches count them)

    @property
    def title(self) -> str:
        return f"{self.ex.id}, scenario {self.scenario}"

    def run(self, schedule: Schedule) -> Snapshot:
        self.runs += 1
        return self.snapshot(runner.run_schedule(self.ex, self.sub, self.scenario, schedule, sites=True))

    def snapshot(self, done: runner.Outcome) -> Snapshot:
        """A run of this source's scenario, made with sites (its journals name the learner's
        lines, its records the calls that made them), as the debugger shows it."""
        model = of_reading(done.reading, judged(done.violations))
        sites.attach(model, done.sites, self.sub.files)
        verdict = Verdict(self.watched, tuple(done.violations), outcome=model.outcome)
        return _snapshot(done.schedule, model, verdict, self.title)

    def recorded(self, schedule: Schedule) -> Model | None:
        return recorded.load(self.ex.id, self.ex.version, self.scenario, schedule)


@dataclass
class RunSource:
    """A Playground run: `scenario` re-run with `sim.run(seed=...)` under another schedule."""

    scenario: Callable[[], Any] | None
    seed: int = 0
    name: str = "your run"
    runs: int = field(default=0)

    @property
    def title(self) -> str:
        return self.name

    @property
    def can_rerun(self) -> bool:
        return self.scenario is not None

    def run(self, schedule: Schedule) -> Snapshot:
        if self.scenario is None:
            raise ValueError("this run cannot be re-run: pass its scenario to debug(run, scenario)")
        self.runs += 1
        return from_run(sim.run(self.scenario, seed=self.seed, faults=list(schedule)), self.title)

    def recorded(self, schedule: Schedule) -> Model | None:
        return None


def from_run(run: sim.Run, title: str = "your run") -> Snapshot:
    """A finished sim.Run as the debugger shows it: judged only by whether it raised."""
    schedule = tuple(f.token() for f in run.faults)
    model = of_reading(Reading.of_run(run), outcome_of(run.value, run.error))
    sites.attach(model, {}, ())
    # A run that raised broke where Ray gave up: its last failure that was final.
    broken = Broken(f"the run {model.outcome}", final=True)
    violations = (Violation(runner.NO_ERROR, broken),) if run.error is not None else ()
    return _snapshot(
        schedule, model, Verdict(runner.NO_ERROR, violations, judged=False, outcome=model.outcome), title
    )


def judged(violations: list[tuple[str, str]]) -> str:
    """An exercise run's outcome in a few words: the invariants judge it, not what it returned."""
    if not violations:
        return "kept every invariant"
    name, detail = violations[0]
    return f"broke {name}: {detail}"


def faults_only(schedule: Schedule) -> Schedule:
    """The schedule's miniray faults, without the grader's second-client moves."""
    return tuple(t for t in schedule if not is_client(t))


def passing_run(source: Source, snap: Snapshot) -> Passing | None:
    """The run to compare with (compare.find_passing), or None if the run passes or none is found."""
    if not snap.verdict.failed:
        return None

    def passes(schedule: Schedule) -> Model | None:
        if not source.can_rerun:
            return None
        trial = source.run(schedule)
        return None if trial.verdict.failed else trial.model

    return find_passing(snap.schedule, passes, lambda: source.recorded(snap.schedule))
