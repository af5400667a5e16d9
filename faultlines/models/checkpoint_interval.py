"""How often to checkpoint: the cost model of lesson 6, as pure functions of hours.

A job needs ``work_h`` hours of computing. It checkpoints after every ``interval_h`` hours of
work, and each checkpoint takes ``cost_h`` hours of I/O. Failures arrive as a Poisson process at
``rate_per_h``; a failure throws away everything since the last finished checkpoint, and the job
restarts after ``restart_h`` hours. Two models of the time this wastes:

* ``first_order``: the textbook estimate, I/O = (work / interval) * cost and redo = work * rate *
  interval / 2 (half an interval lost per failure). Young's optimum minimises it.
* ``exact``: the expected wall time of the same job, E = (work / interval) *
  (e^(rate * (interval + cost)) - 1) * (1 / rate + restart). It also counts failures that strike
  during a checkpoint, failures during redone work, and restarts. The simulation in
  ``checkpoint_sim`` runs exactly this job in miniray, so its average lands on this curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Above this many failures per segment, exp() overflows; such a setting never finishes anyway.
_MAX_EXPONENT = 700.0


@dataclass(frozen=True)
class Overhead:
    """Hours a job loses on top of its work, split the way the lesson talks about them."""

    checkpoints: float  # how many checkpoints the job writes
    io_h: float  # hours spent writing them
    lost_h: float  # hours of work redone, checkpoints lost and restarts, expected
    total_h: float  # io_h + lost_h


def segments(work_h: float, interval_h: float) -> list[float]:
    """The job's stretches of work between checkpoints: full intervals and a shorter last one."""
    if work_h <= 0 or interval_h <= 0:
        raise ValueError("the job's work and the checkpoint interval must both be positive hours")
    full = math.floor(work_h / interval_h + 1e-9)
    rest = work_h - full * interval_h
    return [interval_h] * full + ([rest] if rest > 1e-9 * work_h else [])


def first_order(work_h: float, interval_h: float, rate_per_h: float, cost_h: float) -> Overhead:
    """The seed's arithmetic: work/interval checkpoints, half an interval redone per failure."""
    checkpoints = work_h / interval_h
    io = checkpoints * cost_h
    lost = work_h * rate_per_h * interval_h / 2
    return Overhead(checkpoints, io, lost, io + lost)


def segment_time(length_h: float, rate_per_h: float, cost_h: float, restart_h: float = 0.0) -> float:
    """Expected wall time to get one segment and its checkpoint done, failures included."""
    span = length_h + cost_h
    if rate_per_h <= 0:
        return span
    exponent = rate_per_h * span
    if exponent > _MAX_EXPONENT:
        return math.inf
    return math.expm1(exponent) * (1 / rate_per_h + restart_h)


def exact(
    work_h: float, interval_h: float, rate_per_h: float, cost_h: float, restart_h: float = 0.0
) -> Overhead:
    """Expected overhead under Poisson failures of a job of work_h / interval_h equal segments.

    When the interval divides the work this is exactly the job the simulation runs; otherwise it
    treats the count of segments as fractional, which keeps the curve smooth for the widget.
    """
    count = work_h / interval_h
    io = count * cost_h
    wall = count * segment_time(interval_h, rate_per_h, cost_h, restart_h)
    return Overhead(count, io, wall - work_h - io, wall - work_h)


def young_interval(rate_per_h: float, cost_h: float) -> float:
    """Young (1974): sqrt(2 C / rate), where first-order I/O and redo are equal."""
    return math.sqrt(2 * cost_h / rate_per_h)


def daly_interval(rate_per_h: float, cost_h: float) -> float:
    """Daly (2006)'s higher-order estimate, for C < 2 MTBF; otherwise the MTBF itself."""
    mtbf = 1 / rate_per_h
    if cost_h >= 2 * mtbf:
        return mtbf
    ratio = cost_h / (2 * mtbf)
    return math.sqrt(2 * cost_h * mtbf) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - cost_h


def exact_interval(rate_per_h: float, cost_h: float, restart_h: float = 0.0) -> float:
    """The interval that minimises expected wall time per hour of work, for a long job.

    Time per hour of work is segment_time(tau) / tau, which is convex in tau; a golden-section
    search on a log scale finds its minimum to well under a second.
    """

    def per_hour(log_tau: float) -> float:
        tau = math.exp(log_tau)
        return segment_time(tau, rate_per_h, cost_h, restart_h) / tau

    lo, hi = math.log(1e-6), math.log(max(10.0 / rate_per_h, 10 * cost_h, 1.0))
    golden = (math.sqrt(5) - 1) / 2
    a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
    fa, fb = per_hour(a), per_hour(b)
    for _ in range(200):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - golden * (hi - lo)
            fa = per_hour(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + golden * (hi - lo)
            fb = per_hour(b)
    return math.exp((lo + hi) / 2)
