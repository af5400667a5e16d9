"""Lesson 5's figure: how often the customer pays, for every crash point and every fix.

faultlines.stories.payments.grid runs settle_order on miniray once per (fix, crash point): the
first attempt dies after that many steps of its body and the task is retried (Ray's
max_retries=3). The page prints the same grid as a table; this draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.payments import grid

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Charges:
    by_fix: dict[str, tuple[int, ...]]  # charges per crash point (steps done before the crash)

    def doubles(self) -> int:
        return sum(n > 1 for counts in self.by_fix.values() for n in counts)


def data() -> Charges:
    return Charges({fix: tuple(counts) for fix, counts in grid().items()})


def describe(c: Charges) -> tuple[str, str]:
    rows = "; ".join(f"{fix}: {', '.join(str(n) for n in counts)}" for fix, counts in c.by_fix.items())
    points = sum(len(v) for v in c.by_fix.values())
    alt = (
        f"Grid of {points} runs, one row per version of the task and one column per crash point "
        f"(how many steps of the body ran before the first attempt died), each cell the number of "
        f"times the customer was charged. By row, crash point 0 first: {rows}."
    )
    worst = [fix for fix, counts in c.by_fix.items() if max(counts) > 1]
    caption = (
        f"Charged twice: {c.doubles()} of {points} runs, in the {' and '.join(worst)} version, "
        f"where the attempt dies after the charge and before it returns, so the retry charges "
        f"again. With a fix the customer pays once wherever the crash falls."
    )
    return alt, caption


def draw(c: Charges, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fixes = list(c.by_fix)
    width = max(len(v) for v in c.by_fix.values())
    fig = Figure(figsize=(5.0, 0.5 * len(fixes) + 1.4))
    ax = fig.subplots()
    for y, fix in enumerate(reversed(fixes)):
        for x, n in enumerate(c.by_fix[fix]):
            twice = n > 1
            ax.scatter(
                [x],
                [y],
                s=420,
                marker="s",
                color=ink.red if twice else ink.background,
                edgecolors=ink.red if twice else ink.muted,
                linewidths=1.2,
            )
            ax.text(
                x,
                y,
                f"{n}×",
                ha="center",
                va="center",
                fontsize=9.5,
                fontweight="bold" if twice else "normal",
                color=ink.background if twice else ink.text,
            )
    ax.set_yticks(range(len(fixes)), list(reversed(fixes)))
    ax.set_xticks(range(width))
    ax.set_xlim(-0.6, width - 0.4)
    ax.set_ylim(-0.6, len(fixes) - 0.4)
    ax.set_xlabel("steps done before the first attempt dies")
    ax.set_title("times the customer is charged")
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.tick_params(length=0)
    fig.tight_layout()
    return fig
