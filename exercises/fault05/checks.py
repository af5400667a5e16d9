"""fault05 checks: orders are charged at most once, and every order ends paid."""

from __future__ import annotations

from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks

checks = Checks()
ORDERS = {17: 30, 18: 30}  # same amount on purpose: a key made from the amount collides


class Payments:
    """The API process_order gets: a card gateway with idempotency keys, and the orders table.

    Every call goes through the simulated services, so it is journaled (a replayed body does not
    charge again) and stamped with the attempt that made it (a retried one does)."""

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.charges: list[dict] = []  # money that really moved
        self._by_key: dict[str, str] = {}

    def charge(self, order_id: int, amount: int, idempotency_key: str | None = None) -> str:
        """Charge the order's card; returns a charge id. A repeated idempotency key charges nothing
        and returns the first charge's id, as Stripe's API does."""

        def run() -> str:
            if idempotency_key is not None and idempotency_key in self._by_key:
                return self._by_key[idempotency_key]
            charge_id = f"ch_{len(self.charges) + 1}"
            self.charges.append({"id": charge_id, "order": order_id, "amount": amount})
            if idempotency_key is not None:
                self._by_key[idempotency_key] = charge_id
            return charge_id

        return self._svc.call("gateway", "charge", f"order-{order_id}", run)

    def mark_paid(self, order_id: int, charge_id: str) -> None:
        self._svc.db.upsert("orders", str(order_id), charge_id)

    def paid_with(self, order_id: int) -> str | None:
        """The charge id the order was marked paid with, or None."""
        return self._svc.db.get("orders", str(order_id))


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
    paid = {oid: ctx.services.db.rows("orders").get(str(oid)) for oid in ORDERS}
    return {"charges": list(api.charges), "errors": errors, "paid": paid}


@checks.client
def second_client(sub: Any, ctx: Any) -> Any:
    """Another front-end server processes order 17 too (a customer double-clicked "Pay")."""
    return ctx.extra["task"].remote(17, ORDERS[17])


@checks.invariant("charged-at-most-once")
def at_most_once(outcome: dict, ctx: Any) -> list[str]:
    problems = []
    for oid in ORDERS:
        mine = [c["id"] for c in outcome["charges"] if c["order"] == oid]
        if len(mine) > 1:
            attempts = [e.attempt for e in ctx.services.of(service="gateway", key=f"order-{oid}")]
            problems.append(
                f"order {oid} charged {len(mine)} times ({', '.join(mine)}; gateway calls by {', '.join(attempts)})"
            )
    return problems


@checks.invariant("every-order-paid")
def every_order_paid(outcome: dict, ctx: Any) -> list[str]:
    problems = []
    for oid in ORDERS:
        mine = [c["id"] for c in outcome["charges"] if c["order"] == oid]
        if oid in outcome["errors"]:
            problems.append(f"order {oid}: process_order failed with {outcome['errors'][oid]}")
        elif not mine:
            problems.append(f"order {oid} was never charged")
        elif outcome["paid"][oid] is None:
            problems.append(f"order {oid} was charged ({mine[0]}) but never marked paid")
        elif outcome["paid"][oid] not in mine:
            problems.append(
                f"order {oid} is marked paid with {outcome['paid'][oid]}, which is not its charge"
            )
    return problems
