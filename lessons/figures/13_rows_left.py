"""Lesson 13's figure: the rows a cancelled export leaves in the table, against when its caller
cancels it, for four ways of writing it (faultlines.stories.told_to_stop, the story the page runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.told_to_stop import ROWS, SWEEP, sweep

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SHOWN = ("interrupt", "actor", "actor + is_canceled", "staged")


@dataclass(frozen=True)
class Rows:
    times: tuple[float, ...]
    by_mode: dict[str, list[int]]


def data() -> Rows:
    return Rows(SWEEP, {mode: sweep(mode) for mode in SHOWN})


def _half(rows: list[int]) -> int:
    return sum(0 < n < ROWS for n in rows)


def describe(r: Rows) -> tuple[str, str]:
    parts = "; ".join(
        f"{mode}: {_half(rows)} of {len(rows)} cancel times leave a partial table"
        for mode, rows in r.by_mode.items()
    )
    alt = (
        f"A step chart: the x axis is when the caller cancels the export, from {r.times[0]:g} to "
        f"{r.times[-1]:g} s; the y axis the rows left in the table, 0 to {ROWS}. {parts}. The task "
        f"cancelled with ray.cancel climbs a row every half second; the actor method that never "
        f"checks is flat at {ROWS}; the one that checks is_canceled climbs like the task, one row "
        f"later; the staged export is 0 until its single write at the end, then {ROWS}."
    )
    caption = (
        f"Only the staged export is all or nothing: {_half(r.by_mode['staged'])} partial tables in "
        f"{len(r.times)} cancel times, against {_half(r.by_mode['interrupt'])} for the task that "
        f"writes as it goes."
    )
    return alt, caption


def draw(r: Rows, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.4))
    ax = fig.subplots()
    styles = ("-", "--", "-.", ":")
    markers = ("o", "s", "^", "D")
    for (mode, rows), colour, ls, mk in zip(r.by_mode.items(), ink.series, styles, markers, strict=False):
        ax.step(r.times, rows, where="post", color=colour, ls=ls, lw=1.8, marker=mk, ms=3, label=mode)
    ax.set_xlabel("caller cancels at (s)")
    ax.set_ylabel("rows left in the table")
    ax.set_ylim(-0.5, ROWS + 0.5)
    ax.grid(True, lw=0.6)
    ax.legend(loc="center right", fontsize=8)
    fig.tight_layout()
    return fig
