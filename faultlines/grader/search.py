"""Tier 2 and 3: find a failing schedule, shortest first, or show there is none within the bound.

Bounded-exhaustive search is a breadth-first walk: every schedule of one move (crash before or
after each interaction of each attempt, a node loss at each event boundary, a pause, a second
client after each effect), then two moves, each child built from the boundaries its parent's run
actually went through. Two pruning rules keep it small:
  - a schedule is a set, so {a, b} is tried once, not also as {b, a};
  - a run whose state (its log, fault records left out, and its effects) equals one already
    seen is a duplicate: it is not extended, since its extensions were or will be tried.
Random search draws each move from the boundaries of the run so far, seeded, so it replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .exercise import TierSpec
from .runner import Outcome
from .schedule import Schedule, move_of

RunFn = Callable[[Schedule], Outcome]


@dataclass
class SearchResult:
    failure: Outcome | None
    explored: int
    capped: bool = False


def _allowed(tier: TierSpec, outcome: Outcome, schedule: Schedule, move: str) -> bool:
    name = move_of(move)
    cap = tier.caps.get(name)
    return cap is None or outcome.boundaries.count(schedule, name) < cap


def exhaustive(tier: TierSpec, run: RunFn) -> SearchResult:
    root = run(())
    explored = 1
    if root.failed:
        return SearchResult(root, explored)
    seen_states = {root.fingerprint}
    tried: set[frozenset[str]] = {frozenset()}
    frontier: list[tuple[Schedule, Outcome]] = [((), root)]
    for _depth in range(tier.k):
        following: list[tuple[Schedule, Outcome]] = []
        for schedule, outcome in frontier:
            for move in outcome.boundaries.moves(tier.moves, tier.move_args):
                if move in schedule or not _allowed(tier, outcome, schedule, move):
                    continue
                child = (*schedule, move)
                key = frozenset(child)
                if key in tried:
                    continue
                tried.add(key)
                if explored >= tier.max_runs:
                    return SearchResult(None, explored, capped=True)
                result = run(child)
                explored += 1
                if result.failed:
                    return SearchResult(result, explored)
                if result.fingerprint in seen_states:
                    continue
                seen_states.add(result.fingerprint)
                following.append((child, result))
        frontier = following
    return SearchResult(None, explored)


def randomized(tier: TierSpec, run: RunFn) -> SearchResult:
    explored = 0
    for seed in tier.seeds:
        rng = random.Random(seed)
        schedule: Schedule = ()
        outcome = run(schedule)
        explored += 1
        if outcome.failed:
            return SearchResult(outcome, explored)
        for _ in range(tier.length):
            moves = [
                m
                for m in outcome.boundaries.moves(tier.moves, tier.move_args)
                if m not in schedule and _allowed(tier, outcome, schedule, m)
            ]
            if not moves:
                break
            schedule = (*schedule, rng.choice(moves))
            outcome = run(schedule)
            explored += 1
            if outcome.failed:
                return SearchResult(outcome, explored)
    return SearchResult(None, explored)
