"""fault07 checks: a store fences off a paused leader whose lease has passed to another.

Two leaders take turns on a lease (ttl 10 s) and write a config key. A pause past the lease
(a garbage-collection stop, a frozen VM) turns the first into a zombie: it wakes, still
believing it leads, and writes with its old fencing token. miniray's stores already fence;
here the store's decision is the learner's `fenced_write`, and the grader's store applies it.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks, Service
from miniray.liveness.services import LeaseHeldError, ServiceError

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

    def write(self, key: str, value: str, token: Any) -> None:
        def run() -> None:
            ok = bool(self._sub.fenced_write(self.highest, key, value, token))
            self.attempted.append((value, token.value, ok))
            if not ok:
                raise Fenced(f"write of {value!r} with token {token} refused")
            self.value[key] = value
            self.applied.append((value, token.value, token.holder))

        self._svc.call("store", "write", key, run)


@checks.scenario("two-leaders")
def two_leaders(sub: Any, ctx: Any) -> dict:
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
        for i in range(WRITES):
            time.sleep(2.0)  # work between writes: a pause here outlives the lease
            try:
                store.write(KEY, f"{name}{i}", token)
            except Fenced:
                return "fenced"
        return "done"

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
def no_stale(outcome: dict, ctx: Any) -> list[str]:
    """Once a write with a newer fencing token is applied, no write with an older token is applied after it."""
    problems = []
    best = 0
    for value, token, holder in outcome["store"].applied:
        if token < best:
            problems.append(
                f"{holder}'s write {value!r} with token {LEASE}:{token} was applied after a write with "
                f"{LEASE}:{best}: a zombie leader overwrote its successor"
            )
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
