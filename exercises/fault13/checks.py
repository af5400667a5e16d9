"""fault13 checks: the capstone's failure table, each row checked against a simulated run.

The workload is fixed and lives here: a pure task (`prepare`, Ray's default retries), a stateful
actor (`Embedder`, max_restarts=1 and max_task_retries=1, no checkpoint), a side-effecting task
(`write`, max_retries=0) and a task that `ray.put`s its summary (so its worker owns it). Each
row of the table is one fault; its scenario injects it and reads, from the run's
own event log, what Ray did about it. The learner's table must say the same, row by row.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks
from faultlines.reading import Kind
from miniray import sim
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

checks = Checks()
SIZE = 120_000  # above the inline limit: prepare's output lives in its node's object store
ROWS = {  # row -> the fault the scenario injects (miniray fault tokens)
    "prepare-worker-crash": ["crash prepare#1/1 step=0"],
    "prepare-output-node-lost": ["kill_node node:1 after_event=9"],
    "embed-actor-crash": ["crash Embedder.embed#1/1 step=0"],
    "embed-actor-crash-twice": ["crash Embedder.embed#1/1 step=0", "crash Embedder.__init__#1/1 step=0"],
    "write-worker-crash": ["crash write#1/1 step=0"],
    "summary-owner-node-lost": ["kill_node node:2 after_event=9"],
}
OUTCOMES = ("unaffected", "retried", "reconstructed", "restarted", "fails")


def _workload(ctx: Any, node_ids: list[str]) -> dict:
    ledger: list[str] = []

    @ray.remote
    def prepare() -> bytes:
        return bytes(SIZE)

    @ray.remote(max_restarts=1, max_task_retries=1)
    class Embedder:
        def __init__(self) -> None:
            self.calls = 0

        def embed(self, block: bytes) -> int:
            self.calls += 1
            return len(block)

    @ray.remote(max_retries=0)  # it writes to the ledger, so it is never run twice
    def write(n: int) -> int:
        ctx.services.call("ledger", "append", "ledger", lambda: ledger.append(f"{n}"))
        return n

    @ray.remote
    def summarize(block: bytes) -> list:
        return [ray.put(len(block))]

    @ray.remote(max_retries=3)
    def downstream(i: int) -> int:
        time.sleep(1.0)
        return i

    # Where each piece runs is fixed (softly: a lost node's work may move), so each row's fault
    # hits one piece: prepare's output on node:1, the actor and the summary's owner on node:2.
    on = [NodeAffinitySchedulingStrategy(node_id, soft=True) for node_id in node_ids]
    first, second = 0, 1
    prepared = prepare.options(scheduling_strategy=on[first]).remote()
    embedder = Embedder.options(scheduling_strategy=on[second]).remote()  # type: ignore[attr-defined]
    embedded = embedder.embed.remote(prepared)
    written = write.remote(embedded)
    refs = {"prepared": prepared, "embedded": embedded, "written": written}
    errors: list[str] = []
    try:
        [summary] = ray.get(summarize.options(scheduling_strategy=on[second]).remote(prepared))
        refs["summary"] = summary
    except Exception as e:
        errors.append(type(e).__name__)
    ray.wait(list(refs.values()), num_returns=len(refs))
    # Downstream work on both workers while the outputs sit in the stores: when a node is lost.
    ray.get([downstream.options(scheduling_strategy=s).remote(i) for i, s in enumerate(on)])
    for name in ("prepared", "embedded", "written", "summary"):
        if name not in refs:
            continue
        try:
            ray.get(refs[name])
        except Exception as e:
            errors.append(type(e).__name__)
    if not errors:  # the actor is asked again, after the faults: a second kill may have ended it
        try:
            ray.get(embedder.embed.remote(b"x"))
        except Exception as e:
            errors.append(type(e).__name__)
    # Drop the references in a fixed order, so every Python frees them in the same order.
    del prepared, embedded, written
    refs.clear()
    return {"errors": errors}


def _simulated(ctx: Any, outcome: dict) -> str:
    """What Ray did, read from the run's event log: the most severe of its reactions."""
    if outcome["errors"]:
        return f"fails: {outcome['errors'][0]}"
    reading = ctx.reading
    if reading.count(Kind.TASK_RECONSTRUCT):
        return "reconstructed"
    if "RESTARTING" in reading.actor_states():
        return "restarted"
    if any(a.number != 1 for a in reading.attempts() if a.started is not None):
        return "retried"
    return "unaffected"


def _row_scenario(row: str) -> Any:
    def scenario(sub: Any, ctx: Any) -> dict:
        cluster = ctx.cluster(workers=2, cpus_per_worker=4)
        # The row's fault is part of the scenario, not of a schedule: a schedule is shrunk
        # away when the table is wrong without it, and the row would lose its fault.
        sim.schedule(ROWS[row])
        table = sub.failure_table()
        answer = table.get(row) if isinstance(table, dict) else None
        outcome = _workload(ctx, [n.node_id for n in cluster.worker_nodes])
        return {"row": row, "answer": answer, "simulated": _simulated(ctx, outcome)}

    return scenario


for _row in ROWS:
    checks.scenario(_row)(_row_scenario(_row))


def _normal(answer: Any) -> str:
    if not isinstance(answer, str):
        return repr(answer)
    kind, _, exc = answer.partition(":")
    return f"{kind.strip()}: {exc.strip()}" if exc.strip() else kind.strip()


@checks.invariant("row-matches-simulation")
def matches(outcome: dict, ctx: Any) -> str | Broken | None:
    """Each row's answer is what the simulated run with that row's fault shows Ray doing."""
    row, answer, simulated = outcome["row"], outcome["answer"], outcome["simulated"]
    if answer is None:
        return (
            f"row {row!r}: the table has no answer for it (failure_table() must return a dict with every row)"
        )
    kind = _normal(answer).split(":")[0]
    if kind not in OUTCOMES or (kind == "fails") != (":" in _normal(answer)):
        return (
            f"row {row!r}: {answer!r} is not an answer; use one of 'unaffected', 'retried', "
            f"'reconstructed', 'restarted', or 'fails: ErrorName'"
        )
    if _normal(answer) == simulated:
        return None
    why = f"row {row!r}: the table says {answer!r}; the simulated run says {simulated!r}"
    return Broken(why, final=simulated.startswith("fails"))  # where Ray gave up, if it did
