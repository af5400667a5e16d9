"""Grade a submission tier by tier: run, search, shrink, re-run for determinism, explain."""

from __future__ import annotations

from collections.abc import Callable

from faultlines.reading.differ import Difference

from . import canonical, determinism
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


def _failure(
    ex: Exercise,
    sub: Submission,
    scenario: str,
    found: Outcome,
    runs: Runs,
    replay_call,
) -> Failure:
    # Every run loads the submission afresh, so two executions of one schedule can differ only
    # when the code reads something miniray does not replay (determinism.py). The failing
    # schedule and the root (no faults) both run again: a difference at either is the verdict.
    small, _ = shrink(found, lambda s: runs.fresh(scenario, s))
    # Its journals name the learner's lines, its records the calls that made them: the report's
    # moves and the debugger read this run (Runs.reported), so it is the schedule's last run,
    # whichever tiers report it.
    again = runs.journaled(scenario, small.schedule)
    difference = determinism.compare(small, again)
    if difference is not None:
        return _nondeterministic(ex, sub, scenario, small, again, difference, replay_call)
    if small.schedule and (root := runs.difference(scenario, ())) is not None:
        first, second = runs(scenario, ()), runs.journaled(scenario, ())
        return _nondeterministic(ex, sub, scenario, first, second, root, replay_call)
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
        shrunk_from=len(found.schedule),
        moves=[describe(move, again.reading) for move in small.schedule],
        canonical=canonical.schedule(small.schedule, again.reading, _spelled(ex)),
    )


def _nondeterministic(
    ex: Exercise,
    sub: Submission,
    scenario: str,
    first: Outcome,
    again: Outcome,
    difference: Difference,
    replay_call: ReplayCall,
) -> Failure:
    """The verdict on a schedule whose two runs differed: `deterministic`, with what differed."""
    token = Token(ex.id, ex.version, sub.code_hash, scenario, first.schedule).encode()
    return Failure(
        invariant=determinism.DETERMINISTIC,
        detail=determinism.detail(difference),
        scenario=scenario,
        schedule=list(first.schedule),
        token=token,
        replay_call=replay_call(token),
        timeline=first.log,
        effects=first.effects,
        hint=determinism.hint(difference),
        nondeterminism=difference.what,
        shrunk_from=len(first.schedule),
        moves=[describe(move, again.reading) for move in first.schedule],
        canonical=canonical.schedule(first.schedule, again.reading, _spelled(ex)),
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
        self._differences: dict[tuple[str, Schedule], Difference | None] = {}

    def __call__(self, scenario: str, schedule: Schedule) -> Outcome:
        key = (scenario, schedule)
        outcome = self._done.get(key)
        if outcome is None:
            outcome = self._done[key] = self.fresh(scenario, schedule)
        return outcome

    def fresh(self, scenario: str, schedule: Schedule, sites: bool = False) -> Outcome:
        """A new execution, never a remembered one (the determinism check needs two)."""
        return run_schedule(self.ex, self.sub, scenario, schedule, self.counter, sites)

    def journaled(self, scenario: str, schedule: Schedule) -> Outcome:
        """The schedule's second execution, with the learner's lines noted, run once."""
        key = (scenario, schedule)
        again = self.reported.get(key)
        if again is None:
            again = self.reported[key] = self.fresh(scenario, schedule, sites=True)
        return again

    def difference(self, scenario: str, schedule: Schedule) -> Difference | None:
        """Where the schedule's remembered run and its journaled second run part (None: they do
        not), worked out once per schedule however many tiers ask."""
        key = (scenario, schedule)
        if key not in self._differences:
            self._differences[key] = determinism.compare(self(*key), self.journaled(*key))
        return self._differences[key]


def _first_schedule(tier: TierSpec) -> tuple[str, Schedule]:
    """What a tier runs first: its first scenario run, or the clean run a search starts from."""
    return tier.runs[0] if tier.kind == "scenarios" else (tier.scenario, ())


def _search(tier: TierSpec, runs: Runs) -> tuple[str, SearchResult]:
    if tier.kind == "scenarios":
        explored = 0
        for scenario, schedule in tier.runs:
            outcome = runs(scenario, schedule)
            explored += 1
            if outcome.failed:
                return scenario, SearchResult(outcome, explored)
        return "", SearchResult(None, explored)

    def run(schedule: Schedule) -> Outcome:
        return runs(tier.scenario, schedule)

    return tier.scenario, exhaustive(tier, run) if tier.kind == "search" else randomized(tier, run)


def grade_tier(
    ex: Exercise, sub: Submission, tier: TierSpec, runs: Runs, replay_call: ReplayCall
) -> TierResult:
    # The tier's first schedule runs twice before anything else: a run that passes and does not
    # replay is caught too, not only a failing one (whose schedule _failure runs again).
    scenario, schedule = _first_schedule(tier)
    difference = runs.difference(scenario, schedule)
    if difference is not None:
        first, again = runs(scenario, schedule), runs.journaled(scenario, schedule)
        failure = _nondeterministic(ex, sub, scenario, first, again, difference, replay_call)
        explored = 1
    else:
        scenario, result = _search(tier, runs)
        explored = result.explored
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
        schedules=explored,
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
