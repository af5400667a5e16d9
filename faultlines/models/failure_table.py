"""Lesson 12's decisions: for each failure boundary, what to configure, given the assumptions.

The failure table has one row per boundary (capstone_runs.py measures what each fault costs on
miniray). This module turns assumptions (the failure rate above all) into a decision per row,
each with the number that drove it, so that flipping one assumption shows which decisions move:

    task failure        max_retries: the chance a task exhausts Ray's default 3 retries
    actor death         max_restarts: enough restarts for the job's failures, 99 times in 100
    checkpoint          interval: Young's sqrt(2C/lambda), as in lesson 6
    node loss           materialize the pipeline's output, or trust lineage
    object spill        keep the working set under the spill threshold (no failure rate in it)
    dead owner          create long-lived objects from the driver (no failure rate in it)
    corrupt checkpoint  verify a checksum and keep the previous checkpoint (cost: one interval)
    autoscaler delay    a warm spare node, or wait for the replacement
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Assumptions:
    failure_rate_per_h: float = 0.02  # node failures per hour, across the job's nodes
    job_h: float = 10.0  # the training job's length
    nodes: int = 8  # nodes idle while the job waits for a replacement
    checkpoint_s: float = 30.0  # one checkpoint's I/O
    task_s: float = 60.0  # the longest task
    recompute_s: float = 120.0  # rebuilding the pipeline's output by lineage (measured: node-loss row)
    materialize_s: float = 50.0  # writing that output to durable storage once (seed 001)
    reload_s: float = 5.0  # reading it back after a loss (seed 001)
    autoscaler_delay_s: float = 300.0  # a replacement node's boot time (measured: autoscaler row)

    def check(self) -> None:
        if self.failure_rate_per_h <= 0 or self.job_h <= 0 or self.checkpoint_s <= 0:
            raise ValueError("failure_rate_per_h, job_h and checkpoint_s must be > 0")
        if self.nodes < 1 or self.autoscaler_delay_s < 0:
            raise ValueError("nodes must be >= 1 and autoscaler_delay_s >= 0")

    @property
    def expected_failures(self) -> float:
        return self.failure_rate_per_h * self.job_h


@dataclass(frozen=True)
class Decision:
    row: str
    choice: str
    because: str


def poisson_tail(mean: float, k: int) -> float:
    """P(N > k) for N ~ Poisson(mean)."""
    term = total = math.exp(-mean)
    for i in range(1, k + 1):
        term *= mean / i
        total += term
    return max(0.0, 1.0 - total)


def restarts_needed(mean: float, risk: float = 0.01) -> int:
    k = 0
    while poisson_tail(mean, k) >= risk:
        k += 1
    return k


def young_interval_h(a: Assumptions) -> float:
    return math.sqrt(2 * (a.checkpoint_s / 3600) / a.failure_rate_per_h)


def decide(a: Assumptions) -> list[Decision]:
    a.check()
    lam, fails = a.failure_rate_per_h, a.expected_failures
    p_attempt = min(1.0, lam * a.task_s / 3600)
    tau = young_interval_h(a)
    overhead = 100 * ((a.checkpoint_s / 3600) / tau + lam * tau / 2)
    restarts = restarts_needed(fails)
    saved = fails * (a.recompute_s - a.reload_s)
    waiting = fails * a.autoscaler_delay_s * a.nodes
    spare = a.job_h * 3600
    return [
        Decision(
            "task failure",
            "max_retries=3 (Ray's default); idempotent side effects",
            f"a {a.task_s:g} s task fails all 4 attempts with probability {p_attempt**4:.1e}",
        ),
        Decision(
            "actor death",
            f"max_restarts={restarts}, restore from the last checkpoint in __init__",
            f"{fails:.2g} failures expected in {a.job_h:g} h; more than {restarts} "
            f"with probability {poisson_tail(fails, restarts):.2%}",
        ),
        Decision(
            "checkpoint interval",
            f"every {tau * 60:.0f} min",
            f"Young: sqrt(2 x {a.checkpoint_s:g} s / {lam:g} per h) = {tau:.2f} h; {overhead:.2f} % overhead",
        ),
        Decision(
            "node loss",
            "materialize the pipeline's output"
            if saved > a.materialize_s
            else "trust lineage reconstruction",
            f"expected {saved:.0f} s of recompute saved vs {a.materialize_s:g} s to write it once",
        ),
        Decision(
            "object spill",
            "keep the working set under 80 % of the store; free refs early",
            "a read past the threshold costs the disk whatever the failure rate",
        ),
        Decision(
            "dead owner",
            "create long-lived objects in the driver, or return them instead of ray.put in a task",
            "no retry or reconstruction rebuilds an object whose owner died",
        ),
        Decision(
            "corrupt checkpoint",
            "verify a checksum on restore; keep the previous checkpoint",
            f"a bad checkpoint then costs one more interval ({tau * 60:.0f} min) instead of a wrong model",
        ),
        Decision(
            "autoscaler delay",
            "keep a warm spare node" if waiting > spare else "wait for the replacement",
            f"expected {waiting / 3600:.2f} node-hours idle waiting vs {spare / 3600:g} node-hours for a spare",
        ),
    ]


def flip(base: Assumptions, **changes: Any) -> list[tuple[Decision, Decision, bool]]:
    """Each row's decision before and after changing the assumptions, and whether it changed."""
    after = replace(base, **changes)
    return [(b, c, b.choice != c.choice) for b, c in zip(decide(base), decide(after), strict=True)]
