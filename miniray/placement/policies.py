"""Queue policies: where a group goes back after a scheduling attempt that failed but could succeed.

A policy is any callable `policy(pg, now) -> "front" | "backoff"`, asked after each feasible
failed attempt. `pg` is the group's record (`pg.state`, `pg.scheduling_attempt`,
`pg.recovering_since`, `pg.name`...); `now` is virtual seconds.

  "front"    rank 0: the group is tried again next, ahead of every other group, no delay.
  "backoff"  eligible again after the group's exponential backoff (100 ms, x1.5, up to 1 s);
             due groups queued behind it get their turns meanwhile.

Fresh recovery after a node loss always enters at rank 0 and new groups always queue by
arrival time: those are Ray's rules, and the policies below only differ on *failed* attempts.

Set `stationary = True` on a policy whose answer depends only on `pg.state` (not on counts or
time): the simulator may then compute a hot loop's attempts arithmetically instead of running
one event per attempt. Without it a policy that keeps answering "front" runs attempt by
attempt, exactly but slowly (about 220,000 events per virtual second).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Policy(Protocol):
    """policy(pg, now) -> "front" | "backoff". `stationary`: its answer for a group depends on
    nothing that changes while a hot loop runs, so the loop may be computed arithmetically."""

    stationary: bool

    def __call__(self, pg: Any, now: float) -> str: ...


def _stationary(fn: Callable[[Any, float], str]) -> Policy:
    fn.stationary = True  # type: ignore[attr-defined]
    return fn  # type: ignore[return-value]


@_stationary
def ray_2_60(pg, now: float) -> str:
    """Ray 2.60: a failed RESCHEDULING group goes straight back to rank 0 (the hot loop)."""
    return "front" if pg.state == "RESCHEDULING" else "backoff"


@_stationary
def backoff(pg, now: float) -> str:
    """Ray PR #65970: every failed attempt backs off; fresh recovery still starts at rank 0."""
    return "backoff"


POLICIES: dict[str, Callable] = {"ray-2.60": ray_2_60, "backoff": backoff}
BUILT_IN = tuple(POLICIES.values())  # a policy not among these is asked on the record (pg.requeue)
DEFAULT = "ray-2.60"


def resolve(choice) -> Callable:
    """The `placement_group_queue_policy` setting: a policy name or a callable."""
    if choice is None:
        return POLICIES[DEFAULT]
    if callable(choice):
        return choice
    if isinstance(choice, str) and choice in POLICIES:
        return POLICIES[choice]
    raise ValueError(
        f"Unknown placement_group_queue_policy {choice!r}: use one of {sorted(POLICIES)} or a "
        "callable policy(pg, now) -> 'front' | 'backoff', e.g. "
        "init(_system_config={'placement_group_queue_policy': 'backoff'})."
    )


def decide(policy: Callable, pg, now: float) -> str:
    answer = policy(pg, now)
    if answer not in ("front", "backoff"):
        raise ValueError(
            f"placement_group_queue_policy {getattr(policy, '__name__', policy)!r} "
            f"returned {answer!r} for {pg.label}; a policy must return 'front' or 'backoff'."
        )
    return answer
