"""Lesson 5's task: settle an order by charging a card, under a crash after the charge.

``settle`` runs one Ray task, ``settle_order``, on a fresh miniray cluster. Its first
``crashes`` attempts die just before interaction ``step`` (miniray's crash fault: ``step`` equal
to the attempt's interaction count, which ``step=-1`` picks, means after every effect, before
the result is returned).
Ray retries the task (``max_retries``, default 3 as in Ray 2.60), and every attempt repeats the
body's effects. Four ways to write the body:

* ``"append"``: the bug. ``processor.charge`` creates a new charge on every call.
* ``"idempotency key"``: the same call with ``idempotency_key=order``: the processor answers a
  repeated key with the first charge instead of making another.
* ``"upsert"``: the payment is a row keyed by the order, written with ``db.upsert``; a second
  write replaces the first.
* ``"temp + commit"``: the attempt writes a private temp file and renames it to the order's
  path, which fails if the path exists; it checks for a committed file first and then treats
  "already committed" as success.

The card processor is a course model, not Ray: it stands for any external API that charges,
sends or inserts. Its calls go through miniray's simulated services, so they are journaled,
stamped with the attempt that made them and listed in the run's effect log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import exceptions, sim
from miniray.liveness import Services

FIXES = ("append", "idempotency key", "upsert", "temp + commit")
ORDER, CARD, AMOUNT = "order-7", "card-4242", 30

# What each interaction of one attempt does, in order: the crash points are the gaps between.
STEPS = {
    "append": ["charge the card"],
    "idempotency key": ["charge the card (key order-7)"],
    "upsert": ["upsert the payment row"],
    "temp + commit": [
        "look for a committed file",
        "pick a temp name",
        "write the temp file",
        "rename it into place",
    ],
}


@sim.external  # outside the cluster: every worker reaches the same API, as on Ray
class CardProcessor:
    """A payment API: every charge call makes a charge, unless its idempotency key was seen."""

    def __init__(self, services: Services) -> None:
        self.svc = services
        self.charges: list[tuple[str, str, int]] = []  # (charge id, order, amount)
        self.by_key: dict[str, str] = {}

    def charge(self, order: str, card: str, amount: int, idempotency_key: str | None = None) -> str:
        def run() -> str:
            if idempotency_key is not None and idempotency_key in self.by_key:
                return self.by_key[idempotency_key]  # a repeat: the first charge's id, no new charge
            charge_id = f"ch_{len(self.charges) + 1}"
            self.charges.append((charge_id, order, amount))
            if idempotency_key is not None:
                self.by_key[idempotency_key] = charge_id
            return charge_id

        shown = f"{card} {amount}" + (f" key={idempotency_key}" if idempotency_key else "")
        return self.svc.call("processor", "charge", shown, run)

    def charged(self, order: str) -> int:
        return sum(1 for _, o, _ in self.charges if o == order)


def mktemp(services: Services, prefix: str) -> str:
    """A fresh temp path, like mkstemp. It is asked of the services, so a body that replays
    after blocking gets the same name back (journaled), and it is not logged as an effect."""
    counter = services.__dict__.setdefault("_temp_names", [0])

    def fresh() -> str:
        counter[0] += 1
        return f"{prefix}.{counter[0]}"

    return services.call("blob", "mktemp", prefix, fresh, record=False)


@dataclass(frozen=True)
class SettleRun:
    fix: str
    step: int | None  # where the crashing attempts died (None: no crash)
    crashes: int
    result: str  # what ray.get returned, or the class name of what it raised
    attempts: int
    charges: int  # how many times the customer pays for the order
    leftovers: int  # temp files no attempt committed or cleaned up
    effects: str  # the services' effect log: time, attempt, operation, outcome
    log_text: str
    token: str  # replays the run: seed and fault schedule

    def timeline(self) -> str:
        """Task attempts, worker deaths and effects from the run's log, one per line."""
        lines = []
        for line in self.log_text.splitlines():
            stamp, _, rest = line.strip().partition(" ")
            if rest.startswith(("task.", Kind.WORKER_EXIT, Kind.EFFECT)):
                rest = rest.replace(" token=", "").replace(" outcome=ok", "")
                lines.append(f"{float(stamp):4.1f} s  {rest}")
        return "\n".join(lines)


def _crash_step(fix: str, step: int | None) -> int | None:
    """The step the crashes strike before (-1: after every effect, before the return), checked."""
    if fix not in FIXES:
        raise ValueError(f"unknown fix {fix!r}; choose one of: {', '.join(FIXES)}")
    if step == -1:
        step = len(STEPS[fix])
    if step is not None and not 0 <= step <= len(STEPS[fix]):
        raise ValueError(f"step must be between 0 and {len(STEPS[fix])} for {fix!r}")
    return step


def _settlement(fix: str, svc: Services, processor: CardProcessor, final: str) -> Callable[[], str]:
    """What settle_order's body does with each fix."""

    def body() -> str:
        if fix == "append":
            return processor.charge(ORDER, CARD, AMOUNT)
        if fix == "idempotency key":
            return processor.charge(ORDER, CARD, AMOUNT, idempotency_key=ORDER)
        if fix == "upsert":
            svc.db.upsert("payments", ORDER, {"card": CARD, "amount": AMOUNT})
            return ORDER
        if svc.blobs.read(final) is not None:
            return final  # an earlier attempt committed: success, not a second payment
        temp = mktemp(svc, f"tmp/{ORDER}")  # private to this attempt
        svc.blobs.put(temp, {"card": CARD, "amount": AMOUNT})
        svc.blobs.commit(temp, final)  # atomic; if another attempt won, this one's temp is dropped
        return final

    return body


def settle(fix: str = "append", step: int | None = -1, crashes: int = 1, max_retries: int = 3) -> SettleRun:
    """Run settle_order once under the fault schedule and count what the customer paid."""
    step = _crash_step(fix, step)
    svc = Services()
    processor = CardProcessor(svc)
    final = f"payments/{ORDER}.json"
    body = _settlement(fix, svc, processor, final)

    def scenario() -> str:
        ray.init(num_cpus=1)

        @ray.remote(max_retries=max_retries)
        def settle_order() -> str:
            return body()

        try:
            return str(ray.get(settle_order.remote()))
        except exceptions.RayError as error:
            return type(error).__name__

    faults = (
        []
        if step is None
        else [sim.Fault("crash", f"settle_order#1/{n}", step=step) for n in range(1, crashes + 1)]
    )
    run = sim.run(scenario, faults=faults)
    if run.error is not None:
        raise RuntimeError(f"settle_order failed unexpectedly (replay: {run.token()}): {run.error!r}")
    charges = {
        "append": processor.charged(ORDER),
        "idempotency key": processor.charged(ORDER),
        "upsert": len(svc.db.rows("payments")),
        "temp + commit": int(final in svc.blobs.files),
    }[fix]
    return SettleRun(
        fix=fix,
        step=step,
        crashes=crashes if step is not None else 0,
        result=run.value,
        attempts=Reading.of_run(run).count(Kind.TASK_START, task="settle_order"),
        charges=charges,
        leftovers=sum(path.startswith("tmp/") for path in svc.blobs.files),
        effects=svc.text(),
        log_text=run.log_text,
        token=run.token(),
    )


def grid(crashes: int = 1) -> dict[str, list[int]]:
    """Charges for every fix at every crash point of its first attempts (index = step)."""
    return {fix: [settle(fix, step, crashes).charges for step in range(len(STEPS[fix]) + 1)] for fix in FIXES}
