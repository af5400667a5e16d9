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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FAILURE_RATE_PER_H = 0.020  # lambda: node failures per hour of running
CHECKPOINT_COST_H = 30 / 3600  # C: one checkpoint's I/O, 30 s, in hours
LESSON_INTERVAL_H = 1.0  # the interval the lesson's example job checkpoints at

# Plotted range: wide enough to show both arms of the U around the optimum.
INTERVALS_H = [0.1 + i * (4.0 - 0.1) / 399 for i in range(400)]


def io_overhead(tau: float) -> float:
    return CHECKPOINT_COST_H / tau


def redo_overhead(tau: float) -> float:
    return FAILURE_RATE_PER_H * tau / 2


def total_overhead(tau: float) -> float:
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


@dataclass(frozen=True)
class Curve:
    """What the figure plots: the three overhead curves (fractions of run time) and two points."""

    intervals_h: tuple[float, ...]
    io: tuple[float, ...]
    redo: tuple[float, ...]
    total: tuple[float, ...]
    young_h: float
    daly_h: float
    chosen_h: float


def data() -> Curve:
    return Curve(
        intervals_h=tuple(INTERVALS_H),
        io=tuple(io_overhead(t) for t in INTERVALS_H),
        redo=tuple(redo_overhead(t) for t in INTERVALS_H),
        total=tuple(total_overhead(t) for t in INTERVALS_H),
        young_h=young_interval(),
        daly_h=daly_interval(),
        chosen_h=LESSON_INTERVAL_H,
    )


def describe(curve: Curve) -> tuple[str, str]:
    return _texts(curve.young_h, curve.daly_h)


def draw(curve: Curve, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    best, chosen = curve.young_h, curve.chosen_h
    fig = Figure(figsize=(5.0, 3.6))
    ax = fig.subplots()
    xs = curve.intervals_h
    # Line styles as well as colours, so the three curves differ without colour vision.
    ax.plot(xs, [100 * y for y in curve.total], color=ink.text, lw=2.4, label="total overhead")
    ax.plot(xs, [100 * y for y in curve.io], color=ink.blue, lw=1.6, ls="--", label="checkpoint I/O  C/τ")
    ax.plot(xs, [100 * y for y in curve.redo], color=ink.red, lw=1.6, ls=":", label="expected redo  λτ/2")
    ax.plot([best], [100 * total_overhead(best)], "o", color=ink.green, ms=7, zorder=3)
    ax.annotate(
        f"Young's τ* = {best:.2f} h\n{_pct(total_overhead(best), 3)} lost",
        xy=(best, 100 * total_overhead(best)),
        xytext=(0.75, 3.6),
        arrowprops={"arrowstyle": "->", "color": ink.green},
        color=ink.green,
    )
    ax.plot([chosen], [100 * total_overhead(chosen)], "s", color=ink.purple, ms=6, zorder=3)
    ax.annotate(
        f"lesson's {chosen:.0f} h\n{_pct(total_overhead(chosen), 3)} lost",
        xy=(chosen, 100 * total_overhead(chosen)),
        xytext=(2.3, 0.7),
        arrowprops={"arrowstyle": "->", "color": ink.purple},
        color=ink.purple,
    )
    ax.set_xlim(0, xs[-1])
    ax.set_ylim(0, 6)
    ax.set_xlabel("checkpoint interval τ (hours)")
    ax.set_ylabel("share of run time lost (%)")
    ax.set_title(
        f"λ = {FAILURE_RATE_PER_H:.3f} failures/h, C = {CHECKPOINT_COST_H * 3600:.0f} s per checkpoint"
    )
    ax.grid(True, lw=0.6)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig
