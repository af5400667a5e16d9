"""Grade a submission tier by tier: run, search, shrink, re-run for determinism, explain."""

from __future__ import annotations

import re
from collections.abc import Callable

from . import canonical
from .budgets import Counter
from .exercise import Exercise, TierSpec
from .report import Failure, Report, TierResult
from .runner import Outcome, run_schedule
from .schedule import Schedule, describe
from .search import SearchResult, exhaustive, randomized
from .shrink import shrink
from .submission import Submission
from .tokens import Token

ReplayCall = Callable[[str], str]


def notebook_replay_call(token: str) -> str:
    return f'fl.replay("{token}")  # fl is faultlines.notebook'


def _nondeterminism_cause(source: str) -> str:
    if re.search(r"\b(random|uuid|secrets)\b", source):
        return "an unseeded random source (random, uuid or secrets)"
    if re.search(r"\b(datetime|time\.time|time_ns|perf_counter|monotonic)\b", source):
        return "the wall clock"
    return "something outside its inputs that changes from run to run (a hash of a str, an id(), a file)"


def _failure(
    ex: Exercise,
    sub: Submission,
    scenario: str,
    found: Outcome,
    runs: Runs,
    replay_call,
) -> Failure:
    # Every run loads the submission afresh, so two executions of one schedule can differ only
    # when the code reads something miniray does not replay. The failing schedule and the root
    # (no faults) both run again: a mistake that shows with no fault at all is checked too.
    small, _ = shrink(found, lambda s: runs.fresh(scenario, s))
    # Its journals name the learner's lines, its records the calls that made them: the report's
    # moves and the debugger read this run (Runs.reported), so it is the schedule's last run,
    # whichever tiers report it.
    again = runs.reported.get((scenario, small.schedule))
    if again is None:
        again = runs.reported[(scenario, small.schedule)] = runs.fresh(scenario, small.schedule, sites=True)
    differs = again.trace != small.trace
    if small.schedule and not differs:
        differs = runs.fresh(scenario, ()).trace != runs(scenario, ()).trace
    nondeterminism = None
    if differs:
        nondeterminism = (
            f"the same schedule gave two different runs, so there is no verdict to give: your code "
            f"depends on {_nondeterminism_cause(sub.source)}. Make it depend only on its inputs and "
            f"on miniray (whose clock and ids replay)."
        )
    invariant, detail = small.violations[0]
    token = Token(ex.id, ex.version, sub.code_hash, scenario, small.schedule).encode()
    return Failure(
        invariant=invariant,
        detail=detail,
        scenario=scenario,
        schedule=list(small.schedule),
        token=token,
        replay_call=replay_call(token),
        timeline=small.log,
        effects=small.effects,
        hint=ex.hint_for(invariant, scenario, detail, small.evidence),
        nondeterminism=nondeterminism,
        shrunk_from=len(found.schedule),
        moves=[describe(move, again.reading) for move in small.schedule],
        canonical=canonical.schedule(small.schedule, again.reading, _spelled(ex)),
    )


def _spelled(ex: Exercise) -> frozenset[str]:
    """Names the exercise spells, which a canonical schedule keeps as they are: its entry
    functions and whatever its checks.py defines (the scenario's own tasks)."""
    return frozenset(ex.entry) | canonical.defined_in(ex.folder / "checks.py")


class Runs:
    """Every run of one grading's search, by scenario and schedule. A run is deterministic (the
    verdict depends on that: see _failure), so a schedule two tiers both reach (the clean run
    each search starts from, a random walk's first moves the exhaustive tier already tried) is
    run once; it still counts as explored in each tier that reached it."""

    def __init__(self, ex: Exercise, sub: Submission, counter: Counter | None = None) -> None:
        self.ex, self.sub = ex, sub
        self.counter = counter if counter is not None else sub.counter(ex.line_budget)
        self._done: dict[tuple[str, Schedule], Outcome] = {}
        # Each reported failure's journaled run, by (scenario, schedule): what the debugger opens
        # on, instead of running the schedule again.
        self.reported: dict[tuple[str, Schedule], Outcome] = {}

    def __call__(self, scenario: str, schedule: Schedule) -> Outcome:
        key = (scenario, schedule)
        outcome = self._done.get(key)
        if outcome is None:
            outcome = self._done[key] = self.fresh(scenario, schedule)
        return outcome

    def fresh(self, scenario: str, schedule: Schedule, sites: bool = False) -> Outcome:
        """A new execution, never a remembered one (the determinism check needs two)."""
        return run_schedule(self.ex, self.sub, scenario, schedule, self.counter, sites)


def grade_tier(
    ex: Exercise, sub: Submission, tier: TierSpec, runs: Runs, replay_call: ReplayCall
) -> TierResult:
    scenario_runs: list[tuple[str, SearchResult]] = []
    if tier.kind == "scenarios":
        explored = 0
        for scenario, schedule in tier.runs:
            outcome = runs(scenario, schedule)
            explored += 1
            if outcome.failed:
                scenario_runs.append((scenario, SearchResult(outcome, explored)))
                break
        else:
            scenario_runs.append(("", SearchResult(None, explored)))
    else:

        def run(schedule: Schedule) -> Outcome:
            return runs(tier.scenario, schedule)

        searched = exhaustive(tier, run) if tier.kind == "search" else randomized(tier, run)
        scenario_runs.append((tier.scenario, searched))
    scenario, result = scenario_runs[-1]
    failure = None
    if result.failure is not None:
        failure = _failure(ex, sub, scenario, result.failure, runs, replay_call)
    passed = failure is None
    return TierResult(
        name=tier.name,
        kind=tier.kind,
        points=tier.points,
        earned=tier.points if passed else 0.0,
        passed=passed,
        schedules=result.explored,
        failure=failure,
        hidden=tier.hidden,
    )


def grade(
    ex: Exercise, sub: Submission, replay_call: ReplayCall = notebook_replay_call, runs: Runs | None = None
) -> Report:
    """Every tier in order; each tier is graded even after one fails (partial credit by tier).
    `runs`: the grading's runs, for a caller that shows a failure's run after (`Runs.reported`)."""
    report = Report(ex.id, ex.title, ex.version, sub.code_hash)
    runs = runs if runs is not None else Runs(ex, sub)
    for tier in ex.tiers:
        report.tiers.append(grade_tier(ex, sub, tier, runs, replay_call))
    return report


def replay(ex: Exercise, sub: Submission, token: Token, sites: bool = False) -> Outcome:
    """The token's run, once more; `sites`: with the learner's lines noted, for a debugger."""
    return run_schedule(ex, sub, token.scenario, token.schedule, sites=sites)
