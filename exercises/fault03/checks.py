"""fault03 checks: every output of a small pipeline survives the loss of any one worker node.

The learner's `build(ledger)` returns four ObjectRefs. Each output is big enough (over the 100 KiB
inline limit) to live in the object store of the node that made it, so losing that node loses the
copy, and Ray must rebuild it from lineage. Three of the starter's outputs fall off a cliff:
one comes from an actor's state, one from a task with a side effect (so it was made unretryable),
and one was `ray.put` inside a task (its owner is that task's worker). After the outputs exist,
a short downstream step runs on every worker, so the search can lose either node while they sit
in the stores.

The classes the statement names, and where each is drawn: the three cliffs (an actor's state, a
side effect that makes a task unretryable or repeats when it is retried, an owner that dies with
its node), each on one output of the starter; the loss of either worker node at any moment (the
search loses each one after every event at which a worker is busy), and a crash of any attempt
with a node loss (the random tier). The driver waits for the outputs without reading them
(`fetch_local=False`), so until they are read each lives only where it was made.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from faultlines.reading import Kind
from miniray import liveness, sim
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

checks = Checks()
SIZE = 120_000  # bytes: above the inline limit, so an output lives in a node's object store
OUTPUTS = ("features", "tagged", "published", "summary")


def block(part: int) -> bytes:
    """What load(part) returns: the raw block of part 1 or 2."""
    return bytes([part]) * SIZE


EXPECTED = {
    "features": block(1),
    "tagged": bytes([2]) + block(2),  # block 2 tagged with its batch number, 2
    "published": block(1)[::-1],
    "summary": block(2)[: SIZE // 2],
}


class Ledger(Service):
    """The audit ledger `publish` writes to (a simulated service: every call is journaled and
    stamped with the attempt that made it, so a re-run task writes again).

        ledger.append(entry)      adds a line; calling it twice adds two lines
        ledger.put(key, entry)    writes the line under `key`; the same key again overwrites it
    """

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.lines: list[tuple[str, str]] = []  # (key, entry), in order; append's key is ""

    def append(self, entry: str) -> None:
        def run() -> None:
            self.lines.append(("", str(entry)))

        self._svc.call("ledger", "append", "ledger", run)

    def put(self, key: str, entry: str) -> None:
        def run() -> None:
            self.lines = [(k, e) for k, e in self.lines if k != key or not key] + [(str(key), str(entry))]

        self._svc.call("ledger", "put", str(key), run)


def _describe(value: Any, want: bytes) -> str:
    if not isinstance(value, bytes | bytearray):
        return f"a {type(value).__name__}, not bytes"
    if len(value) != len(want):
        return f"{len(value)} bytes, expected {len(want)}"
    if value[:1] != want[:1]:
        return f"bytes starting {value[:1]!r}, expected {want[:1]!r}"
    return "different bytes"


WAKE_S = 60.0  # the watched run waits this long before reading: a paused attempt wakes meanwhile


@checks.scenario("four-outputs")
def four_outputs(sub: Any, ctx: Any) -> dict:
    return _four_outputs(sub, ctx, watched=False)


@checks.scenario("four-outputs-watched")
def four_outputs_watched(sub: Any, ctx: Any) -> dict:
    """The same pipeline with a failure detector on (miniray.liveness): a node that stops
    answering is presumed dead and its tasks run again elsewhere, while the paused attempt may
    still wake and finish what it was doing (a zombie), as on Ray."""
    return _four_outputs(sub, ctx, watched=True)


def _four_outputs(sub: Any, ctx: Any, watched: bool) -> dict:
    cluster = ctx.cluster(workers=2, cpus_per_worker=2)
    if watched:
        liveness.enable(probe_interval_s=5.0, unhealthy_threshold=3)
    node_ids = [n.node_id for n in cluster.worker_nodes]  # NodeAffinity takes ids, not names
    ledger = Ledger(ctx.services)
    refs = sub.build(ledger)
    if not isinstance(refs, dict) or set(refs) != set(OUTPUTS):
        got = sorted(refs) if isinstance(refs, dict) else type(refs).__name__
        return {"shape": f"build() returned {got}; expected a dict with keys {list(OUTPUTS)}"}
    ready = [r for r in refs.values() if isinstance(r, ray.ObjectRef)]
    ray.wait(ready, num_returns=len(ready), fetch_local=False)  # made, not yet read: one copy each

    # Downstream work on every worker while the outputs sit in the stores: the window in which
    # losing a node loses the only copy of what it made.
    @ray.remote(max_retries=3)
    def downstream(step: int) -> int:
        time.sleep(1.0)
        return step

    ray.get(
        [
            downstream.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=True)).remote(
                i
            )
            for i, node_id in enumerate(node_ids)
        ]
    )
    if watched:
        sim.sleep(WAKE_S)
    values: dict[str, Any] = {}
    for name in OUTPUTS:
        ref = refs[name]
        if not isinstance(ref, ray.ObjectRef):
            values[name] = ("error", f"build() gave a {type(ref).__name__}, not an ObjectRef")
            continue
        try:
            values[name] = ("value", ray.get(ref))
        except Exception as e:
            first = str(e).strip().splitlines()
            values[name] = ("error", f"{type(e).__name__}: {first[0] if first else ''}")
    # Drop the references in a fixed order, so the objects are freed in the same order on every
    # Python (which frees a finished frame's locals in an order of its own).
    del ready, ref
    for name in OUTPUTS:
        refs[name] = None
    return {"values": values, "ledger": list(ledger.lines)}


@checks.invariant("outputs-survive")
def survive(outcome: dict, ctx: Any) -> list[str] | list[Broken]:
    """Every output can still be read with ray.get after any one worker node is lost."""
    if "shape" in outcome:
        return [outcome["shape"]]
    return [  # a read Ray gave up on: it broke at the run's last such failure
        Broken(f"output {name!r} is gone: ray.get raised {detail}", final=True)
        for name, (kind, detail) in outcome["values"].items()
        if kind == "error"
    ]


@checks.invariant("outputs-correct")
def correct(outcome: dict, ctx: Any) -> list[str]:
    """Every output read back holds the same bytes as before the loss (a rebuilt one too)."""
    if "shape" in outcome:
        return []
    return [
        f"output {name!r} is {_describe(value, EXPECTED[name])}"
        for name, (kind, value) in outcome["values"].items()
        if kind == "value" and value != EXPECTED[name]
    ]


@checks.invariant("published-once")
def published_once(outcome: dict, ctx: Any) -> str | None:
    """The audit ledger holds exactly one line for the publication, however often publish ran."""
    if "shape" in outcome:
        return None
    lines = outcome["ledger"]
    if len(lines) > 1:
        return f"the ledger holds {len(lines)} lines for one publication: {[e for _, e in lines]}"
    if not lines:
        return "the ledger holds no line: publish() never recorded its output"
    return None


@checks.evidence_for("an-actor-ran")
def an_actor_ran(outcome: Any, ctx: Any) -> bool:
    return ctx.reading.count(Kind.ACTOR_CREATE) > 0


@checks.evidence_for("ledger-keys-differ")
def ledger_keys_differ(outcome: Any, ctx: Any) -> bool:
    """The ledger holds several keyed lines, each under a different key."""
    keys = [k for k, _ in (outcome or {}).get("ledger", [])]
    return len(keys) > 1 and all(keys) and len(set(keys)) == len(keys)


@checks.evidence_for("checked-then-wrote")
def checked_then_wrote(outcome: Any, ctx: Any) -> bool:
    """Two attempts of publish each read the ledger's lines before appending: a check, then a write."""
    checked = [
        key
        for key, calls in ctx.journals.items()
        if key.startswith("publish#")
        and [op for op, _ in calls if op in ("read Ledger.lines", "ledger.append")][:2]
        == ["read Ledger.lines", "ledger.append"]
    ]
    return len(checked) >= 2
