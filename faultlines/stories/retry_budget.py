"""A retry budget, run for real on miniray: retries allowed as a fraction of traffic.

Ray has no retry budget: `max_retries` is a count per task. This is the course's driver-side
version of seed 003's advice, written with Ray's public API only (so it runs on Ray too): every
first attempt that comes back earns `ratio` of a token, every retry spends a whole one, and when the bucket is
empty a failed task is not retried. Across all traffic, retries can then add at most `ratio`
attempts per task (plus the bucket's small start-up allowance), however bad things get.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import sim


class TransientError(ConnectionError):
    """What a flaky dependency raises: worth retrying."""


@dataclass
class TokenBucket:
    ratio: float  # tokens earned per first attempt: the budget as a fraction of traffic
    tokens: float = 1.0  # a small allowance so the very first failure may be retried
    cap: float = 10.0

    def earn(self) -> None:
        self.tokens = min(self.cap, self.tokens + self.ratio)

    def spend(self) -> bool:
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(frozen=True)
class Measured:
    tasks: int
    attempts: int
    succeeded: int
    denied: int = 0  # retries the budget refused

    @property
    def attempts_per_task(self) -> float:
        return self.attempts / self.tasks

    @property
    def success_rate(self) -> float:
        return self.succeeded / self.tasks


@ray.remote
def flaky_call(i: int, p: float) -> int:
    """One second of work against a dependency that fails each attempt with chance p."""
    time.sleep(1)
    # Seeded by the task and the virtual instant: each attempt draws afresh, every run the same.
    if random.Random(f"{i}@{sim.now()}").random() < p:
        raise TransientError(f"call {i} failed")
    return i


def _attempts() -> int:
    return Reading(sim.event_log()).count(Kind.TASK_START)


def per_task_retries(tasks: int, p: float, max_retries: int) -> Measured:
    """Ray's own mechanism: each task may retry `max_retries` times on TransientError."""
    ray.init(num_cpus=8)
    call = flaky_call.options(max_retries=max_retries, retry_exceptions=[TransientError])
    refs = [call.remote(i, p) for i in range(tasks)]
    succeeded = 0
    for ref in refs:
        try:
            ray.get(ref)
            succeeded += 1
        except TransientError:
            pass
    return Measured(tasks, _attempts(), succeeded)


def budgeted_retries(tasks: int, p: float, max_retries: int, ratio: float) -> Measured:
    """The driver retries instead of Ray, while the token bucket allows (max_retries per task too)."""
    ray.init(num_cpus=8)
    bucket = TokenBucket(ratio)
    call = flaky_call.options(max_retries=0)
    tries: dict = {}
    for i in range(tasks):
        tries[call.remote(i, p)] = (i, 1)
    pending, succeeded, denied = list(tries), 0, 0
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        i, n = tries.pop(done[0])
        if n == 1:  # tokens are earned as first attempts come back, so they track live traffic
            bucket.earn()
        try:
            ray.get(done[0])
            succeeded += 1
        except TransientError:
            if n <= max_retries and bucket.spend():
                ref = call.remote(i, p)
                tries[ref] = (i, n + 1)
                pending.append(ref)
            elif n <= max_retries:
                denied += 1
    return Measured(tasks, _attempts(), succeeded, denied)
