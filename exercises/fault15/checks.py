"""fault15 checks: a cancelled booking is all or nothing, the caller says what became of it,
and a cancel is never turned into a retry.

The classes the statement names, and where each is drawn: the caller cancels book_trip
(`ray.cancel`, the `cancel` move: after any kernel event while the task runs on its node) while
it quotes, between two legs' reservations, and after a reservation was made but before its reply
came back; once with force=False (the task is interrupted, its worker lives on) and once with
force=True (its worker is killed). A crash of the worker, which Ray retries (max_retries=3),
comes on top in the last tier. Without a cancel the trip must end booked.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from miniray import sim

checks = Checks()
TRIP = "trip-7"
LEGS = ("flight", "hotel", "car")
PRICES = {"flight": 420, "hotel": 310, "car": 95}
QUOTE_S = 2.0  # a quote takes two virtual seconds: the long part, where most cancels land
REPLY_S = 1.0  # a reservation is made at once; its reply takes a second to come back


class Travel(Service):
    """The travel agency's API book_trip gets. A quote has no effect; a reservation is an effect
    in the world, stamped with the attempt that made it (a retry that reserves again does)."""

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.reservations: list[dict] = []  # every reservation that really exists
        self.by_trip: dict[str, str] = {}  # trip -> the reserve_all booking id (its idempotency)

    def quote(self, trip: str, leg: str) -> int:
        """The price of one leg (slow: two seconds). Reserves nothing."""
        time.sleep(QUOTE_S)
        return self._svc.call("api", "quote", f"{trip}/{leg}", lambda: PRICES[leg], record=False)

    def reserve(self, trip: str, leg: str, price: int) -> str:
        """Reserve one leg; returns its reservation id. Each call makes a reservation."""

        def run() -> str:
            return self._made(trip, [leg], price, "reserve")

        rid = self._svc.call("api", "reserve", f"{trip}/{leg}", run)
        time.sleep(REPLY_S)
        return rid

    def reserve_all(self, trip: str, prices: dict) -> str:
        """Reserve every leg in `prices` at once, or none; returns the booking id. A second call
        for the same trip reserves nothing and returns the first call's id."""

        def run() -> str:
            if trip not in self.by_trip:
                self.by_trip[trip] = self._made(trip, sorted(prices), sum(prices.values()), "reserve_all")
            return self.by_trip[trip]

        rid = self._svc.call("api", "reserve_all", f"{trip}/{'+'.join(sorted(prices))}", run)
        time.sleep(REPLY_S)
        return rid

    def booking(self, trip: str) -> dict | None:
        """The trip's reserved legs, leg -> reservation id, or None if it has none."""

        def run() -> dict | None:
            legs = {leg: r["id"] for r in self.reservations if r["trip"] == trip for leg in r["legs"]}
            return legs or None

        return self._svc.call("api", "booking", trip, run, record=False)

    def _made(self, trip: str, legs: list[str], price: int, by: str) -> str:
        rid = f"R{len(self.reservations) + 1}"
        attempt = sim.current_attempt()
        self.reservations.append(
            {
                "id": rid,
                "trip": trip,
                "legs": legs,
                "price": price,
                "by": by,
                "attempt": attempt.key if attempt else "driver",
            }
        )
        return rid


@checks.scenario("one-trip")
def one_trip(sub: Any, ctx: Any) -> dict:
    ctx.cluster(workers=2)
    api = Travel(ctx.services)

    # The harness owns the remote function and its options: Ray retries a crashed worker
    # (max_retries=3); a cancel it never retries.
    @ray.remote(max_retries=3)
    def book_trip(trip: str, legs: list) -> Any:
        return sub.book_trip(api, trip, legs)

    submits: list[Any] = []

    def submit() -> Any:
        ref = book_trip.remote(TRIP, list(LEGS))
        submits.append(ref)
        return ref

    said = sub.run_trip(api, TRIP, submit)
    return {"said": said, "reservations": list(api.reservations), "submits": len(submits)}


def _legs(outcome: dict) -> dict[str, list[dict]]:
    """Each leg's reservations for the trip."""
    legs: dict[str, list[dict]] = {leg: [] for leg in LEGS}
    for r in outcome["reservations"]:
        for leg in r["legs"]:
            legs.setdefault(leg, []).append(r)
    return legs


def _cancels(ctx: Any) -> list[Any]:
    """The caller's ray.cancel reaching book_trip, in order."""
    return ctx.reading.of(sim.Kind.TASK_CANCEL, task="book_trip")


def _at_cancel(ctx: Any) -> dict:
    cancels = _cancels(ctx)
    return {"at": cancels[0].index} if cancels else {}


@checks.invariant("all-or-nothing")
def all_or_nothing(outcome: dict, ctx: Any) -> list[str | Broken]:
    """The trip ends with every leg reserved once, or with none: never half a trip, never a leg twice."""
    legs = _legs(outcome)
    problems: list[str | Broken] = []
    for leg, rs in legs.items():
        if len(rs) > 1:
            by = ", ".join(r["attempt"] for r in rs)
            problems.append(
                Broken(
                    f"the {leg} is reserved {len(rs)} times (by {by})", attempts=[r["attempt"] for r in rs]
                )
            )
    held = [leg for leg in LEGS if legs[leg]]
    if held and len(held) < len(LEGS):
        missing = [leg for leg in LEGS if not legs[leg]]
        cancels = _cancels(ctx)
        when = (
            f" after the caller cancelled book_trip at {cancels[0].time:g} s"
            if cancels
            else " with no cancel at all"
        )
        problems.append(
            Broken(
                f"the trip ends half-made{when}: {' and '.join(held)} reserved, no {' or '.join(missing)}",
                **_at_cancel(ctx),
            )
        )
    return problems


@checks.invariant("cancel-is-final")
def cancel_is_final(outcome: dict, ctx: Any) -> Broken | None:
    """Once the caller cancels book_trip, no attempt of it starts again: a cancel is not a retry."""
    cancels = _cancels(ctx)
    if not cancels:
        return None
    later = [r for r in ctx.reading.of(sim.Kind.TASK_START, task="book_trip") if r.index > cancels[0].index]
    if not later:
        return None
    return Broken(
        f"the caller cancelled {cancels[0]['attempt']} at {cancels[0].time:g} s, and {later[0]['attempt']} "
        f"started at {later[0].time:g} s: the cancelled booking was submitted again",
        at=later[0].index,
    )


@checks.invariant("caller-says-what-happened")
def caller_says(outcome: dict, ctx: Any) -> str | None:
    """run_trip returns "booked" when the trip holds every leg and "cancelled" when it holds none."""
    held = [leg for leg, rs in _legs(outcome).items() if rs]
    truth = "booked" if len(held) == len(LEGS) else "cancelled" if not held else None
    said = outcome["said"]
    if truth is None or said == truth:
        return None
    if truth == "booked":
        return f"run_trip returned {said!r}, but the trip holds every leg ({', '.join(held)})"
    return f"run_trip returned {said!r}, but the trip holds no leg"


@checks.invariant("booked-unless-cancelled")
def booked_unless_cancelled(outcome: dict, ctx: Any) -> str | None:
    """When nobody cancels, the trip ends booked: every leg reserved."""
    if _cancels(ctx):
        return None
    missing = [leg for leg, rs in _legs(outcome).items() if not rs]
    return f"nobody cancelled, yet the trip has no {' or '.join(missing)}" if missing else None


@checks.evidence_for("reserved-in-parts")
def reserved_in_parts(outcome: Any, ctx: Any) -> bool:
    """A reservation held only some of the trip's legs: the trip was reserved in more than one call."""
    return bool(outcome) and any(len(r["legs"]) < len(LEGS) for r in outcome["reservations"])


@checks.evidence_for("submitted-again")
def submitted_again(outcome: Any, ctx: Any) -> bool:
    """run_trip submitted the booking more than once."""
    return bool(outcome) and outcome["submits"] > 1


@checks.evidence_for("late-cancel")
def late_cancel(outcome: Any, ctx: Any) -> bool:
    """The cancel reached book_trip after the trip's reservation had been made."""
    cancels = _cancels(ctx)
    made = ctx.reading.of(sim.Kind.EFFECT, service="api")
    return bool(cancels) and any(r.index < cancels[0].index for r in made)
