"""fault02 checks: a tally actor survives kills by restarting and restoring its last checkpoint.

The driver sends three numbered additions to the learner's actor and then asks for the total.
The actor's worker is crashed before or after any of its interactions (the checkpoint store's
calls are interactions), and its node may be lost. After any such schedule, every call must
return, and the total must count each addition exactly once.

The classes the statement names, and where each is drawn: a kill before a checkpoint call, after
one (as the call returns: the reply is lost, and Ray sends the call again), during the restart
(in `__init__`), and the loss of the actor's node; once or twice in a run. The search tries every
schedule of up to two of them (at most one node loss); the random tier draws two.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service

checks = Checks()
ADDS = [(1, 5), (2, 7), (3, 11)]  # (sequence number, amount)
TOTAL = sum(amount for _, amount in ADDS)


# The name its calls go by in the log and the debugger: the learner's `store.save`, `store.load`.
STORE = "store"


class CheckpointStore(Service):
    """Durable storage outside the actor (a simulated service: it outlives workers and nodes).

    store.save(state)   keeps a copy of `state` (any picklable value) as the latest checkpoint
    store.load()        a copy of the latest checkpoint, or None if none was saved
    """

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.latest: Any = None
        self.saves = 0
        self.loads = 0  # the loads really made (a journal replay is not one)
        self.loaders: list[int] = []  # the (simulated) process id of each load, in order

    def save(self, state: Any) -> None:
        kept = copy.deepcopy(state)  # a copy: mutating the actor's state later must not change it

        def run() -> None:
            self.latest = kept
            self.saves += 1

        self._svc.call(STORE, "save", "tally", run)

    def load(self) -> Any:
        def run() -> Any:
            self.loads += 1
            self.loaders.append(os.getpid())  # each worker process has its own pid (miniray)
            return copy.deepcopy(self.latest)

        return self._svc.call(STORE, "load", "tally", run, record=False)


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"


@checks.scenario("three-adds")
def three_adds(sub: Any, ctx: Any) -> dict:
    ctx.cluster(workers=2)
    store = CheckpointStore(ctx.services)
    tally_class = sub.make_tally(store)
    if not hasattr(tally_class, "remote"):
        return {"shape": f"make_tally() returned {type(tally_class).__name__}, not a @ray.remote class"}
    tally = tally_class.remote()
    calls: dict[str, str] = {}
    refs = [(f"add({seq}, {amount})", tally.add.remote(seq, amount)) for seq, amount in ADDS]
    for label, ref in refs:
        try:
            ray.get(ref)
            calls[label] = "ok"
        except Exception as e:
            calls[label] = _first_line(e)
    # Drop the references in a fixed order, so the objects are freed in the same order on every
    # Python (which frees a finished frame's locals in an order of its own).
    del ref
    refs.clear()
    outcome: dict[str, Any] = {
        "calls": calls,
        "saves": store.saves,
        "loads": store.loads,
        "loaders": len(set(store.loaders)),  # how many of the actor's processes loaded
    }
    try:
        outcome["total"] = ray.get(tally.total.remote())
    except Exception as e:
        calls["total()"] = _first_line(e)
    return outcome


@checks.invariant("calls-return")
def calls_return(outcome: dict, ctx: Any) -> list[str] | list[Broken]:
    """Every call on the actor (each add, then total) returns instead of raising, whatever kills it."""
    if "shape" in outcome:
        return [outcome["shape"]]
    # A call that raised is one Ray gave up on: each broke at the run's last such failure.
    return [
        Broken(f"{label} raised {result}", final=True)
        for label, result in outcome["calls"].items()
        if result != "ok"
    ]


@checks.invariant("total-exact")
def total_exact(outcome: dict, ctx: Any) -> str | None:
    """total() counts each of the three additions exactly once: 5 + 7 + 11 = 23."""
    if "total" not in outcome:  # the shape was wrong, or total() raised: calls-return says so
        return None
    total = outcome["total"]
    if total == TOTAL:
        return None
    if isinstance(total, int | float) and total > TOTAL:
        return f"total() returned {total}, expected {TOTAL}: an addition was counted twice"
    return f"total() returned {total!r}, expected {TOTAL}: an addition was lost"


def _lost(outcome: Any) -> bool:
    total = (outcome or {}).get("total")
    return isinstance(total, int | float) and total < TOTAL


@checks.evidence_for("never-saved")
def never_saved(outcome: Any, ctx: Any) -> bool:
    """Additions were lost, and no checkpoint was ever saved: the count lived in process memory."""
    return _lost(outcome) and outcome["saves"] == 0


@checks.evidence_for("saved-never-loaded")
def saved_never_loaded(outcome: Any, ctx: Any) -> bool:
    return _lost(outcome) and outcome["saves"] > 0 and outcome["loads"] == 0


def _restarted(ctx: Any) -> bool:
    return "RESTARTING" in _actor_states(ctx)


@checks.evidence_for("loaded-yet-lost")
def loaded_yet_lost(outcome: Any, ctx: Any) -> bool:
    """The restarted actor loaded a checkpoint (a process after the first one loaded), and an
    addition is still missing: the checkpoint did not hold it."""
    return _lost(outcome) and outcome["loads"] > 0 and (outcome.get("loaders", 0) > 1 or not _restarted(ctx))


@checks.evidence_for("restarted-without-loading")
def restarted_without_loading(outcome: Any, ctx: Any) -> bool:
    """Additions were lost after a restart, and only the first process ever loaded the checkpoint:
    the restarted one answered from __init__'s values, before any load."""
    return _lost(outcome) and outcome["loads"] > 0 and outcome.get("loaders", 0) == 1 and _restarted(ctx)


def _actor_states(ctx: Any) -> list[str]:
    return ctx.reading.actor_states()


@checks.evidence_for("restarts-ran-out")
def restarts_ran_out(outcome: Any, ctx: Any) -> bool:
    """The actor restarted at least once, then died for good."""
    states = _actor_states(ctx)
    return "RESTARTING" in states and "DEAD" in states


@checks.evidence_for("never-restarted")
def never_restarted(outcome: Any, ctx: Any) -> bool:
    states = _actor_states(ctx)
    return "DEAD" in states and "RESTARTING" not in states
