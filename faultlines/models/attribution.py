"""Failure attribution that does not blame a node for its input (lesson 8, seed 003).

`miniray.liveness.attribution.Attribution` counts every failed attempt against the node it ran
on, including application errors such as a `ValueError` from a malformed row. A malformed row
fails the same way on every node, so those failures say nothing about the machine; worse, a node
that fails fast frees up first and is handed the next row, so a batch of bad input can get a
healthy node blacklisted. `InputAwareAttribution` counts only failures whose class is retryable
(`RETRYABLE`: the environment's failures) and system failures (a worker or node dying).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import miniray
from miniray import context, sim
from miniray.cluster_utils import Cluster
from miniray.liveness.attribution import RETRYABLE, Attribution, TransientError

RETRYABLE_NAMES = frozenset(cls.__name__ for cls in RETRYABLE)


class InputAwareAttribution(Attribution):
    """Attribution that ignores application errors whose class is not retryable."""

    def _on_record(self, rec: Any) -> None:
        # `task.error` is an application error (its class name in "error"); `task.fail` is a
        # system failure (a worker or node died), which is always about the machine.
        if rec.kind == "task.error" and rec.get("error") not in RETRYABLE_NAMES:
            return
        super()._on_record(rec)


# -- the lesson's two batches ----------------------------------------------------------------------
COUNTERS = {"none": None, "all failures": Attribution, "retryable only": InputAwareAttribution}


@dataclass(frozen=True)
class BatchRun:
    counter: str
    finished_at: float  # virtual seconds
    attempts: int  # attempts started
    results: tuple[str, ...]  # each row's value or error class
    report: tuple[dict, ...]  # per node: failures, successes, blacklisted
    blacklisted: tuple[str, ...]


def run_batch(
    rows: list[str], counter: str = "none", bad_node: int | None = None, nodes: int = 3
) -> BatchRun:
    """Parse `rows` on `nodes` 1-CPU nodes (5 s a row). Rows starting "bad" are malformed
    (ValueError, terminal); node `bad_node` (1-based) has a corrupt local cache (TransientError,
    retryable, on every row). `counter` picks the failure attribution, if any."""
    if counter not in COUNTERS:
        raise ValueError(f"unknown counter {counter!r}; choose one of {', '.join(COUNTERS)}")
    miniray.shutdown()  # a lab may still have its own cluster up: this run starts afresh
    sim.set_seed(0)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=cluster.address)
    try:
        workers = [cluster.add_node(num_cpus=1) for _ in range(nodes)]
        broken = workers[bad_node - 1].name if bad_node else None
        make = COUNTERS[counter]
        attribution = make(min_failures=3, ratio=3.0) if make is not None else Attribution(blacklist=False)

        @miniray.remote(max_retries=3, retry_exceptions=list(RETRYABLE))
        def parse(row: str) -> str:
            here = context.require("parse").current[-1].worker.node.name
            if here == broken:
                raise TransientError(f"corrupt local cache on {here}")
            if row.startswith("bad"):
                raise ValueError(f"malformed row {row!r}")
            time.sleep(5)
            return row

        results = []
        for ref in [parse.remote(r) for r in rows]:
            try:
                results.append(miniray.get(ref))
            except Exception as error:  # each row's outcome, as the batch's report would show it
                results.append(type(getattr(error, "cause", None) or error).__name__)
        return BatchRun(
            counter=counter,
            finished_at=sim.now(),
            attempts=sum(1 for r in sim.event_log() if r.kind == "task.start"),
            results=tuple(results),
            report=tuple(attribution.report()),
            blacklisted=tuple(sorted(attribution.blacklisted)) if make is not None else (),
        )
    finally:
        miniray.shutdown()
        cluster.shutdown()


BAD_INPUT_ROWS = ["ok1", "ok2", "bad1", "bad2", "bad3", "bad4", "ok3", "ok4", "ok5", "ok6"]
GOOD_ROWS = [f"ok{i}" for i in range(1, 13)]
