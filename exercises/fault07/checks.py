"""fault07 checks: a store fences off a paused leader whose lease has passed to another.

Two leaders take turns on a lease (ttl 10 s) and write a config key. A pause past the lease
(a garbage-collection stop, a frozen VM) turns the first into a zombie: it wakes, still
believing it leads, and writes with its old fencing token. miniray's stores already fence;
here the store's decision is the learner's `fenced_write`, and the grader's store applies it.

The classes the statement names, and where each is drawn: a zombie that stops at its first
refused write ("two-leaders", the teaching tier) and one that does not know it is a zombie and
keeps writing ("stubborn-zombie", every other tier); its pause at every moment a leader runs, so
that it wakes before or after its successor's first write; the same holder writing several
times under one token; and a crash of either leader (the search and the random tier).
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from miniray.liveness import LeaseHeldError, ServiceError

checks = Checks()
LEASE = "primary"
KEY = "config"
TTL_S = 10.0
WRITES = 3


class Fenced(ServiceError):
    """The store refused a write: a newer token has been seen."""


class Store(Service):
    """One register per key; every write asks the learner's fenced_write whether to apply."""

    def __init__(self, sub: Any, services: Any) -> None:
        self._sub = sub
        self._svc = services
        self.highest: dict[str, int] = {}  # the learner's memory of tokens seen, kept by the store
        self.value: dict[str, Any] = {}
        self.applied: list[tuple[str, int, str]] = []  # (value, token, attempt)
        self.attempted: list[tuple[str, int, bool]] = []  # (value, token, applied?)
        self.remembered: list[dict[str, Any]] = []  # `highest` after each decision

    def write(self, key: str, value: str, token: Any) -> None:
        def run() -> None:
            ok = bool(self._sub.fenced_write(self.highest, key, value, token))
            self.attempted.append((value, token.value, ok))
            self.remembered.append(dict(self.highest))
            if not ok:
                raise Fenced(f"write of {value!r} with token {token} refused")
            self.value[key] = value
            self.applied.append((value, token.value, token.holder))

        self._svc.call("store", "write", key, run)


@checks.scenario("two-leaders")
def two_leaders(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, stubborn=False)


@checks.scenario("stubborn-zombie")
def stubborn_zombie(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, stubborn=True)


def _run(sub: Any, ctx: Any, stubborn: bool) -> dict:
    """`stubborn`: a leader whose write is refused goes on with its next writes."""
    ctx.cluster(workers=2)
    services = ctx.services
    store = Store(sub, services)

    @ray.remote(max_retries=0)
    def leader(name: str, start_s: float) -> str:
        time.sleep(start_s)
        while True:
            try:
                token = services.leases.acquire(LEASE, ttl_s=TTL_S)
                break
            except LeaseHeldError:
                time.sleep(2.0)
        refused = 0
        for i in range(WRITES):
            time.sleep(2.0)  # work between writes: a pause here outlives the lease
            try:
                store.write(KEY, f"{name}{i}", token)
            except Fenced:
                if not stubborn:
                    return "fenced"
                refused += 1
        return f"done, {refused} refused" if refused else "done"

    results = {}
    refs = {"a": leader.remote("a", 0.0), "b": leader.remote("b", 1.0)}
    for name, ref in refs.items():
        try:
            results[name] = ray.get(ref)
        except Exception as e:
            results[name] = f"{type(e).__name__}"
    granted = max((e.token for e in services.of(service="lease", op="acquire", outcome="ok")), default="")
    return {"results": results, "store": store, "granted": granted}


@checks.invariant("no-stale-write")
def no_stale(outcome: dict, ctx: Any) -> list[Broken]:
    """Once a write with a newer fencing token is applied, no write with an older token is applied after it."""
    problems = []
    best = 0
    for value, token, holder in outcome["store"].applied:
        if token < best:
            why = (
                f"{holder}'s write {value!r} with token {LEASE}:{token} was applied after a write with "
                f"{LEASE}:{best}: a zombie leader overwrote its successor"
            )
            problems.append(Broken(why, attempts=[holder]))
        best = max(best, token)
    return problems


@checks.invariant("current-holder-writes")
def holder_writes(outcome: dict, ctx: Any) -> list[str]:
    """A write is refused only if a newer token has been seen: the current holder's writes go through."""
    best = 0
    problems = []
    for value, token, ok in outcome["store"].attempted:
        if not ok and token >= best:
            problems.append(
                f"the write {value!r} with token {LEASE}:{token} was refused, though no newer token had been "
                f"seen (the newest was {LEASE}:{best})"
            )
        if ok:
            best = max(best, token)
    return problems


@checks.evidence_for("never-remembered")
def never_remembered(outcome: Any, ctx: Any) -> bool:
    """The dict the store keeps for fenced_write was never written to."""
    return bool(outcome) and not outcome["store"].highest


@checks.evidence_for("nothing-refused")
def nothing_refused(outcome: Any, ctx: Any) -> bool:
    return bool(outcome) and all(ok for _, _, ok in outcome["store"].attempted)


def _decisions(outcome: Any) -> list[tuple[int, bool, dict[str, Any]]]:
    """(token, applied?, what `highest` held after the decision), per write."""
    if not outcome:
        return []
    store = outcome["store"]
    return [(token, ok, h) for (_, token, ok), h in zip(store.attempted, store.remembered)]


@checks.evidence_for("lowered-the-bar")
def lowered_the_bar(outcome: Any, ctx: Any) -> bool:
    """A refused write's stale token became the newest one remembered for the key."""
    ds = _decisions(outcome)
    return any(
        not ok and h.get(KEY) == token and i and token < ds[i - 1][2].get(KEY, 0)
        for i, (token, ok, h) in enumerate(ds)
    )


@checks.evidence_for("forgot-after-refusing")
def forgot_after_refusing(outcome: Any, ctx: Any) -> bool:
    """After a refusal, the store's memory of the key was gone."""
    return any(not ok and KEY not in h for _, ok, h in _decisions(outcome))


@checks.evidence_for("refused-then-applied")
def refused_then_applied(outcome: Any, ctx: Any) -> bool:
    """A token the store refused was applied later on."""
    refused: set[int] = set()
    for token, ok, _ in _decisions(outcome):
        if not ok:
            refused.add(token)
        elif token in refused:
            return True
    return False


@checks.evidence_for("refused-a-newer-token")
def refused_a_newer_token(outcome: Any, ctx: Any) -> bool:
    best = 0
    for _, token, ok in outcome["store"].attempted if outcome else ():
        if not ok and token > best:
            return True
        if ok:
            best = max(best, token)
    return False
