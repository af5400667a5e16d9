"""Lesson 6's second figure: the exact cost curve, and the same job run in miniray.

The curve is checkpoint_interval.exact for seed 001's job (10 h of work, 0.02 failures per
hour, 30 s checkpoints). The points are averages of runs of that job in miniray under random
failures (faultlines.stories.checkpoint_sim), with two standard errors either side. The lesson's
numbers module prints the same points as a table (the same seeds give the same runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.models import checkpoint_interval as model
from faultlines.stories import checkpoint_sim as sim

if TYPE_CHECKING:
    from matplotlib.figure import Figure

WORK_H, RATE, COST_H = 10.0, 0.02, 30 / 3600
RUNS = 500  # as lessons/numbers/06_checkpoint_interval.py
INTERVALS_H = [0.1 + i * (4.0 - 0.1) / 299 for i in range(300)]


@dataclass(frozen=True)
class Measured:
    """The model's curves and the points measured on miniray."""

    intervals_h: tuple[float, ...]
    exact_h: tuple[float, ...]
    first_order_h: tuple[float, ...]
    points: tuple[sim.Point, ...]


def data() -> Measured:
    return Measured(
        intervals_h=tuple(INTERVALS_H),
        exact_h=tuple(model.exact(WORK_H, t, RATE, COST_H).total_h for t in INTERVALS_H),
        first_order_h=tuple(model.first_order(WORK_H, t, RATE, COST_H).total_h for t in INTERVALS_H),
        points=tuple(sim.measure_curve(WORK_H, RATE, COST_H, runs=RUNS)),
    )


def describe(measured: Measured) -> tuple[str, str]:
    points = measured.points
    listed = "; ".join(
        f"at {p.interval_h:.2f} h, {p.mean_overhead_h:.3f} h measured against {p.model_h:.3f} h expected"
        for p in points
    )
    inside = sum(abs(p.mean_overhead_h - p.model_h) <= 2 * p.stderr_h for p in points)
    alt = (
        f"Line chart of the hours a 10-hour job loses, against the checkpoint interval from 0.1 to 4 "
        f"hours: the exact expected overhead as a solid U-shaped curve, the first-order estimate "
        f"as a dashed curve just below it, and {len(points)} points measured by running the job in "
        f"miniray {RUNS} times each under random failures: {listed}."
    )
    caption = (
        f"Each point is the mean overhead of {RUNS} miniray runs of the job (seeds "
        f"{points[0].seeds[0]}–{points[0].seeds[1]}, the same failure times at every interval); "
        f"{inside} of {len(points)} lie within two standard errors of the exact curve. The bars "
        f"grow with the interval: a failure then costs more, and with 0.2 failures per run most "
        f"runs see none."
    )
    return alt, caption


def draw(measured: Measured, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.6))
    ax = fig.subplots()
    xs = measured.intervals_h
    ax.plot(xs, measured.exact_h, color=ink.text, lw=2.4, label="exact expected overhead")
    ax.plot(xs, measured.first_order_h, color=ink.blue, lw=1.6, ls="--", label="first-order  C·W/τ + λWτ/2")
    points = measured.points
    ax.errorbar(
        [p.interval_h for p in points],
        [p.mean_overhead_h for p in points],
        yerr=[2 * p.stderr_h for p in points],
        fmt="o",
        color=ink.red,
        ms=6,
        capsize=4,
        label=f"miniray: mean of {RUNS} runs ± 2 s.e.",
        zorder=3,
    )
    ax.set_xlim(0, xs[-1])
    ax.set_ylim(0, 0.6)
    ax.set_xlabel("checkpoint interval τ (hours)")
    ax.set_ylabel("hours lost by a 10 h job")
    ax.set_title("λ = 0.020 failures/h, C = 30 s: model and simulation")
    ax.grid(True, lw=0.6)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig
