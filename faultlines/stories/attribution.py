"""Two failure counters side by side (lesson 8, seed 003): one that blames the node for its input.

`miniray.liveness.attribution.Attribution` counts only failures that implicate the node: a
worker or node dying under the attempt, or an error whose class is retryable (`RETRYABLE`: the
environment's failures). `CountEveryFailure` is the tempting first version that counts every
failed attempt, application errors included. A malformed row fails the same way on every node,
so those failures say nothing about the machine; worse, a node that fails fast frees up first and
is handed the next row, so a batch of bad input gets a healthy node blacklisted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import miniray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.liveness import RETRYABLE, Attribution, TransientError

RETRYABLE_NAMES = frozenset(cls.__name__ for cls in RETRYABLE)


class CountEveryFailure(Attribution):
    """The naive counter: every failed attempt, whatever failed, counts against its node."""

    def implicates_node(self, rec: Any) -> bool:
        return True


# -- the lesson's two batches ----------------------------------------------------------------------
COUNTERS = {"none": None, "all failures": CountEveryFailure, "retryable only": Attribution}


@dataclass(frozen=True)
class BatchRun:
    counter: str
    finished_at: float  # virtual seconds
    attempts: int  # attempts started
    results: tuple[str, ...]  # each row's value or error class
    report: tuple[dict, ...]  # per node: failures, successes, blacklisted
    blacklisted: tuple[str, ...]
    log_text: str = ""  # the run's attempts: starts, errors and finishes, one line each


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
            here = sim.current_attempt().node  # type: ignore[union-attr]  # inside a task
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
        reading = Reading(sim.event_log())
        return BatchRun(
            counter=counter,
            finished_at=sim.now(),
            attempts=reading.count(Kind.TASK_START),
            results=tuple(results),
            report=tuple(attribution.report()),
            blacklisted=tuple(sorted(attribution.blacklisted)) if make is not None else (),
            log_text="\n".join(
                r.line() for r in reading.of(Kind.TASK_START, Kind.TASK_ERROR, Kind.TASK_FINISH)
            ),
        )
    finally:
        miniray.shutdown()
        cluster.shutdown()


BAD_INPUT_ROWS = ["ok1", "ok2", "bad1", "bad2", "bad3", "bad4", "ok3", "ok4", "ok5", "ok6"]
GOOD_ROWS = [f"ok{i}" for i in range(1, 13)]
