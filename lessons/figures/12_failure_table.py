"""Lesson 12's figure: the capstone's failure table as a chart. Seconds each failure costs.

Every row is run on miniray by faultlines.stories.capstone_runs (the runs the page's numbers
quote): the clean workload, then the same workload with one fault, and the difference in virtual
seconds. A row whose job never returns a correct result is drawn to the axis' end and says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories import capstone_runs as runs

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Table:
    rows: tuple[runs.RowRun, ...]


def data() -> Table:
    return Table(tuple(runs.all_rows()))


def _failed(row: runs.RowRun) -> bool:
    return not row.correct or math.isinf(row.lost_s)


def describe(t: Table) -> tuple[str, str]:
    listed = "; ".join(
        f"{r.row}: {r.outcome}, no result" if _failed(r) else f"{r.row}: {r.lost_s:g} s lost" for r in t.rows
    )
    finite = [r for r in t.rows if not _failed(r)]
    worst = max(finite, key=lambda r: r.lost_s)
    alt = (
        f"Horizontal bar chart of the virtual seconds each of {len(t.rows)} failures costs the "
        f"capstone workload on miniray, against a clean run. {listed}."
    )
    failed = [r.row for r in t.rows if _failed(r)]
    caption = (
        f"Each bar is a miniray run with one fault; the costliest that still finishes is "
        f"{worst.row} ({worst.lost_s:g} s), and "
        + (
            f"{' and '.join(failed)} never returns a result: no retry setting helps, only design."
            if failed
            else "every row returns a correct result."
        )
    )
    return alt, caption


def draw(t: Table, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    rows = list(reversed(t.rows))
    finite = [r.lost_s for r in rows if not _failed(r)]
    end = max(finite) * 1.45
    fig = Figure(figsize=(5.0, 0.42 * len(rows) + 1.1))
    ax = fig.subplots()
    for y, row in enumerate(rows):
        if _failed(row):
            ax.barh(y, end, color=ink.background, edgecolor=ink.red, hatch="xx", lw=1.2, height=0.62)
            ax.text(
                end * 0.03,
                y,
                row.outcome,
                va="center",
                color=ink.red,
                fontsize=9,
                fontweight="bold",
                bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1},
            )
        else:
            ax.barh(y, row.lost_s, color=ink.blue, height=0.62)
            ax.text(row.lost_s + end * 0.01, y, f"{row.lost_s:g} s", va="center", color=ink.text, fontsize=9)
    ax.set_yticks(range(len(rows)), [r.row for r in rows])
    ax.set_xlim(0, end)
    ax.set_xlabel("virtual seconds lost against a clean run")
    ax.grid(True, axis="x", lw=0.6)
    ax.set_axisbelow(True)
    fig.tight_layout()
    return fig
