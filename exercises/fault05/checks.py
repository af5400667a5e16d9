"""fault05 checks: orders are charged at most once, and every order ends paid.

The classes the statement names, and where each is drawn: a crash of process_order before the
charge, between the charge and mark_paid, and as it returns; a node loss; a second client
processing order 17 after any service call (a double-click on "Pay"); two orders of the same
amount (so a key made from the amount, or one key for all, collides). The search tries every
schedule of up to two of these (one node loss, one client at most); the random tier draws three.
"""

from __future__ import annotations

from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from miniray import sim

checks = Checks()
ORDERS = {17: 30, 18: 30}  # same amount on purpose: a key made from the amount collides


# The name every call goes by in the log, the schedule's words and the debugger: the learner's
# own, `api.charge`, `api.mark_paid`, `api.paid_with` (the statement's and the starter's).
API = "api"


class Payments(Service):
    """The API process_order gets: a card gateway with idempotency keys, and the orders table.

    Every call goes through the simulated services, so it is journaled (a replayed body does not
    charge again) and stamped with the attempt that made it (a retried one does)."""

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.charges: list[dict] = []  # money that really moved
        self.reads: list[tuple[str, int]] = []  # (attempt, order) of every paid_with call
        self.keys: list[tuple[int, str | None]] = []  # (order, idempotency key) of every charge call
        self.paid: dict[int, str] = {}  # the orders table: order -> the charge it was marked paid with
        self._by_key: dict[str, str] = {}

    def charge(self, order_id: int, amount: int, idempotency_key: str | None = None) -> str:
        """Charge the order's card; returns a charge id. A repeated idempotency key charges nothing
        and returns the first charge's id, as Stripe's API does."""

        def run() -> str:
            self.keys.append((order_id, idempotency_key))
            if idempotency_key is not None and idempotency_key in self._by_key:
                return self._by_key[idempotency_key]
            charge_id = f"ch_{len(self.charges) + 1}"
            self.charges.append(
                {
                    "id": charge_id,
                    "order": order_id,
                    "amount": amount,
                    "key": idempotency_key,
                    "attempt": _attempt(),
                }
            )
            if idempotency_key is not None:
                self._by_key[idempotency_key] = charge_id
            return charge_id

        # What the log shows of the call: the order, and the key as it was passed (or its absence).
        shown = f"order {order_id}, " + (
            "no idempotency key" if idempotency_key is None else f"idempotency key {idempotency_key!r}"
        )
        return self._svc.call(API, "charge", shown, run)

    def mark_paid(self, order_id: int, charge_id: str) -> None:
        """Record the order as paid with that charge (a second call overwrites the first)."""

        def run() -> None:
            self.paid[order_id] = charge_id

        self._svc.call(API, "mark_paid", f"order {order_id}, charge {charge_id}", run)

    def paid_with(self, order_id: int) -> str | None:
        """The charge id the order was marked paid with, or None."""

        def run() -> str | None:
            self.reads.append((_attempt(), order_id))
            return self.paid.get(order_id)

        return self._svc.call(API, "paid_with", f"order {order_id}", run, record=False)


def _attempt() -> str:
    attempt = sim.current_attempt()
    return attempt.key if attempt is not None else "driver"


def _task(sub: Any, api: Payments) -> Any:
    # The harness owns the remote function and its retry options: system failures are retried
    # by Ray (max_retries=3), so the question is only what a retried body does twice.
    @ray.remote(max_retries=3)
    def process_order(order_id: int, amount: int) -> None:
        return sub.process_order(api, order_id, amount)

    return process_order


@checks.scenario("two-orders")
def two_orders(sub: Any, ctx: Any) -> dict:
    ctx.cluster(workers=2)
    api = Payments(ctx.services)
    task = _task(sub, api)
    ctx.extra.update(api=api, task=task)
    refs = {oid: task.remote(oid, amount) for oid, amount in ORDERS.items()}
    errors = {}
    for oid, ref in refs.items():
        try:
            ray.get(ref)
        except Exception as e:
            errors[oid] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"
    ctx.wait_clients()
    paid = {oid: api.paid.get(oid) for oid in ORDERS}
    return {
        "charges": list(api.charges),
        "errors": errors,
        "paid": paid,
        "reads": list(api.reads),
        "keys": list(api.keys),
    }


@checks.client
def second_client(sub: Any, ctx: Any) -> Any:
    """Another front-end server processes order 17 too (a customer double-clicked "Pay")."""
    return ctx.extra["task"].remote(17, ORDERS[17])


@checks.invariant("charged-at-most-once")
def at_most_once(outcome: dict, ctx: Any) -> list[Broken]:
    """No order's card is charged twice: not by a retry after a crash, nor by a second client."""
    problems = []
    for oid in ORDERS:
        mine = [c["id"] for c in outcome["charges"] if c["order"] == oid]
        if len(mine) > 1:
            attempts = [c["attempt"] for c in outcome["charges"] if c["order"] == oid]
            why = f"order {oid} charged {len(mine)} times ({', '.join(mine)}; by {', '.join(attempts)})"
            problems.append(Broken(why, attempts=attempts))  # broken at the later attempt's charge
    return problems


@checks.invariant("every-order-paid")
def every_order_paid(outcome: dict, ctx: Any) -> list[str | Broken]:
    """Every order ends charged and marked paid with its own charge."""
    problems: list[str | Broken] = []
    for oid in ORDERS:
        mine = [c["id"] for c in outcome["charges"] if c["order"] == oid]
        if oid in outcome["errors"]:
            problems.append(
                Broken(f"order {oid}: process_order failed with {outcome['errors'][oid]}", final=True)
            )
        elif not mine:
            problems.append(f"order {oid} was never charged")
        elif outcome["paid"][oid] is None:
            problems.append(f"order {oid} was charged ({mine[0]}) but never marked paid")
        elif outcome["paid"][oid] not in mine:
            problems.append(
                f"order {oid} is marked paid with {outcome['paid'][oid]}, which is not its charge"
            )
    return problems


def _doubled(outcome: Any) -> list[list[dict]]:
    """The charges of each order charged more than once."""
    if not outcome:
        return []
    by_order: dict[int, list[dict]] = {}
    for c in outcome["charges"]:
        by_order.setdefault(c["order"], []).append(c)
    return [cs for cs in by_order.values() if len(cs) > 1]


def _task_of(attempt: str) -> str:
    return attempt.rsplit("/", 1)[0]  # "process_order#1/2" -> "process_order#1"


@checks.evidence_for("charged-without-a-key")
def charged_without_a_key(outcome: Any, ctx: Any) -> bool:
    return any(c["key"] is None for cs in _doubled(outcome) for c in cs)


@checks.evidence_for("keys-differ")
def keys_differ(outcome: Any, ctx: Any) -> bool:
    """An order charged twice under two different idempotency keys."""
    return any(
        None not in {c["key"] for c in cs} and len({c["key"] for c in cs}) > 1 for cs in _doubled(outcome)
    )


@checks.evidence_for("looked-before-charging")
def looked_before_charging(outcome: Any, ctx: Any) -> bool:
    """An attempt that charged an order twice-charged had read the order's state first."""
    reads = set(outcome["reads"]) if outcome else set()
    return any((c["attempt"], c["order"]) in reads for cs in _doubled(outcome) for c in cs)


@checks.evidence_for("charged-by-a-retry")
def charged_by_a_retry(outcome: Any, ctx: Any) -> bool:
    """Two attempts of the same task charged the same order: a retry repeated the charge."""
    return any(len({_task_of(c["attempt"]) for c in cs}) < len(cs) for cs in _doubled(outcome))


@checks.evidence_for("key-shared-by-orders")
def key_shared_by_orders(outcome: Any, ctx: Any) -> bool:
    """Two orders presented the same idempotency key: the gateway took them for one payment."""
    orders_by_key: dict[str, set[int]] = {}
    for order, key in outcome["keys"] if outcome else ():
        if key is not None:
            orders_by_key.setdefault(key, set()).add(order)
    return any(len(orders) > 1 for orders in orders_by_key.values())
