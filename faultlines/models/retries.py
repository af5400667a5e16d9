"""Bounded retries as arithmetic: what `max_retries` costs and buys when attempts fail.

Each attempt of a task fails independently with probability `p` (a transient fault), and a
failed attempt is retried until `max_retries` retries are spent. Terminal failures (bad input,
a bug) fail every attempt: `p = 1` for those tasks. Work is counted in attempts; an attempt that
fails is wasted work.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RetryCost:
    p: float  # chance that one attempt fails
    max_retries: int
    success: float  # chance the task ends with a value
    attempts: float  # expected attempts per task (1 = no amplification)
    wasted: float  # expected failed attempts per task

    @property
    def amplification(self) -> float:
        """Attempts per task divided by the one attempt it would take with no failures."""
        return self.attempts


def retry_cost(p: float, max_retries: int) -> RetryCost:
    """Expected attempts and waste for one task with per-attempt failure chance p."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got {p}")
    if max_retries < 0:
        raise ValueError(
            f"max_retries must be 0 or more (Ray's -1, retry forever, has no finite cost), got {max_retries}"
        )
    tries = max_retries + 1
    # Attempt k (1-based) runs only if the k-1 before it failed: sum of p**(k-1) for k = 1..tries.
    attempts = float(tries) if p == 1.0 else (1.0 - p**tries) / (1.0 - p)
    success = 1.0 - p**tries
    return RetryCost(p, max_retries, success, attempts, attempts - success)


def mixed_cost(
    p_transient: float, terminal_share: float, max_retries: int, retry_terminal: bool
) -> RetryCost:
    """A workload where `terminal_share` of tasks always fail (bad input) and the rest fail
    transiently with `p_transient`. `retry_terminal` says whether the retry policy retries the
    terminal failures too (retry_exceptions=True) or stops at the first one (a list of types)."""
    transient = retry_cost(p_transient, max_retries)
    terminal = retry_cost(1.0, max_retries if retry_terminal else 0)
    share = terminal_share
    attempts = (1 - share) * transient.attempts + share * terminal.attempts
    success = (1 - share) * transient.success
    return RetryCost(p_transient, max_retries, success, attempts, attempts - success)


def budget_cost(p: float, max_retries: int, budget: float) -> RetryCost:
    """The same workload with a retry budget: retries may add at most `budget` attempts per first
    attempt across all traffic (seed 003's "a fraction of traffic, not a count per request").

    A fluid picture of a token bucket in steady state: each wanted retry is granted with the
    same chance g, and g is the largest value whose retries fit the budget. Retry k of a task
    runs with chance (p*g)**k (every earlier attempt failed and every retry was granted), so
    retries per task are the sum of (p*g)**k for k = 1..max_retries, and amplification never
    passes 1 + budget.
    """
    if budget < 0:
        raise ValueError(f"budget must be 0 or more, got {budget}")
    free = retry_cost(p, max_retries)
    if free.attempts - 1.0 <= budget:
        return free

    def retries(g: float) -> float:
        return sum((p * g) ** k for k in range(1, max_retries + 1))

    lo, hi = 0.0, 1.0
    for _ in range(60):  # bisection: retries(g) grows with g
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if retries(mid) <= budget else (lo, mid)
    q = p * lo
    attempts = 1.0 + retries(lo)
    success = (1.0 - p) * sum(q**k for k in range(0, max_retries + 1))
    return RetryCost(p, max_retries, success, attempts, attempts - success)
