"""Lesson 6's figure: the share of a run lost to checkpointing, against the checkpoint interval.

A run that checkpoints every tau hours pays two overheads, each as a fraction of its time:
writing checkpoints, C / tau, and redoing the work lost since the last checkpoint, which on a
failure is half an interval on average, so lambda * tau / 2 at lambda failures per hour. Their
sum is a U whose bottom Young's approximation puts at tau* = sqrt(2 C / lambda).

Every number on the figure, in its alt text and in its caption is computed here from the three
inputs below, so changing an input can never leave a stale number on the page.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure

FAILURE_RATE_PER_H = 0.020  # lambda: node failures per hour of running
CHECKPOINT_COST_H = 30 / 3600  # C: one checkpoint's I/O, 30 s, in hours
LESSON_INTERVAL_H = 1.0  # the interval the lesson's example job checkpoints at

# Plotted range: wide enough to show both arms of the U around the optimum.
INTERVALS_H = np.linspace(0.1, 4.0, 400)


def io_overhead(tau):
    return CHECKPOINT_COST_H / tau


def redo_overhead(tau):
    return FAILURE_RATE_PER_H * tau / 2


def total_overhead(tau):
    return io_overhead(tau) + redo_overhead(tau)


def young_interval() -> float:
    return math.sqrt(2 * CHECKPOINT_COST_H / FAILURE_RATE_PER_H)


def daly_interval() -> float:
    """Daly's higher-order estimate (2006), valid while C < 2 * MTBF; the caption quotes it so
    the reader sees how far the first-order answer is off for these inputs."""
    mtbf, cost = 1 / FAILURE_RATE_PER_H, CHECKPOINT_COST_H
    ratio = cost / (2 * mtbf)
    return math.sqrt(2 * cost * mtbf) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - cost


def _pct(fraction: float, digits: int = 2) -> str:
    return f"{100 * fraction:.{digits}f} %"


def _hours(tau: float) -> str:
    return f"{tau:.2f} h ({60 * tau:.0f} min)"


def _texts(best: float, daly: float) -> tuple[str, str]:
    chosen = LESSON_INTERVAL_H
    gap_points = 100 * (total_overhead(chosen) - total_overhead(best))
    inputs = (
        f"a failure rate of {FAILURE_RATE_PER_H:.3f} per hour and "
        f"{CHECKPOINT_COST_H * 3600:.0f}-second checkpoints"
    )
    # Alt text says what the picture shows; the caption says what to take from it. A screen
    # reader reads both, so they do not repeat each other word for word.
    alt = (
        f"Line chart of the share of run time lost, against the checkpoint interval from "
        f"{INTERVALS_H[0]:.1f} to {INTERVALS_H[-1]:.0f} hours, for {inputs}. The checkpoint "
        f"I/O curve falls and the expected redo line rises; their sum is U-shaped, with its "
        f"minimum at Young's optimum of {_hours(best)}, where {_pct(total_overhead(best), 3)} "
        f"of the time is lost. At the lesson's {chosen:.0f}-hour interval the I/O costs "
        f"{_pct(io_overhead(chosen))} and the redo {_pct(redo_overhead(chosen))}, "
        f"{_pct(total_overhead(chosen), 3)} in all, {gap_points:.3f} percentage points above "
        f"the minimum."
    )
    caption = (
        f"Checkpointing every τ hours at λ = {FAILURE_RATE_PER_H:.3f} failures/h with "
        f"C = {CHECKPOINT_COST_H * 3600:.0f} s per checkpoint loses C/τ to I/O plus λτ/2 to "
        f"redone work. Young's τ* = √(2C/λ) = {_hours(best)} loses "
        f"{_pct(total_overhead(best))}; the {chosen:.0f} h interval loses "
        f"{_pct(io_overhead(chosen))} + {_pct(redo_overhead(chosen))} = "
        f"{_pct(total_overhead(chosen))}, nearly the same: the U is flat near its bottom. "
        f"Daly's higher-order estimate puts the optimum at {_hours(daly)}."
    )
    return alt, caption


def figure() -> tuple[Figure, str, str]:
    best, daly, chosen = young_interval(), daly_interval(), LESSON_INTERVAL_H
    fig = Figure(figsize=(7, 4.2), facecolor="white")  # white: readable on the dark theme too
    ax = fig.subplots()
    # Line styles as well as colours, so the three curves differ without colour vision.
    ax.plot(INTERVALS_H, 100 * total_overhead(INTERVALS_H), color="#222222", lw=2.4, label="total overhead")
    ax.plot(
        INTERVALS_H,
        100 * io_overhead(INTERVALS_H),
        color="#0072b2",
        lw=1.6,
        ls="--",
        label="checkpoint I/O  C/τ",
    )
    ax.plot(
        INTERVALS_H,
        100 * redo_overhead(INTERVALS_H),
        color="#d55e00",
        lw=1.6,
        ls=":",
        label="expected redo  λτ/2",
    )
    ax.plot([best], [100 * total_overhead(best)], "o", color="#009e73", ms=8, zorder=3)
    ax.annotate(
        f"Young's optimum τ* = {best:.2f} h\n{_pct(total_overhead(best), 3)} lost",
        xy=(best, 100 * total_overhead(best)),
        xytext=(1.15, 4.4),
        arrowprops={"arrowstyle": "->", "color": "#009e73"},
        color="#00664a",
    )
    ax.plot([chosen], [100 * total_overhead(chosen)], "s", color="#cc79a7", ms=7, zorder=3)
    ax.annotate(
        f"lesson's interval {chosen:.0f} h\n{_pct(total_overhead(chosen), 3)} lost",
        xy=(chosen, 100 * total_overhead(chosen)),
        xytext=(1.7, 0.6),
        arrowprops={"arrowstyle": "->", "color": "#a0507f"},
        color="#8a3f6b",
    )
    ax.set_xlim(0, INTERVALS_H[-1])
    ax.set_ylim(0, 6)
    ax.set_xlabel("checkpoint interval τ (hours)")
    ax.set_ylabel("share of run time lost (%)")
    ax.set_title(
        f"λ = {FAILURE_RATE_PER_H:.3f} failures/h, C = {CHECKPOINT_COST_H * 3600:.0f} s per checkpoint",
        fontsize=10,
    )
    ax.grid(True, color="#dddddd", lw=0.6)
    ax.legend(loc="upper right", frameon=False)
    fig.tight_layout()
    alt, caption = _texts(best, daly)
    return fig, alt, caption
