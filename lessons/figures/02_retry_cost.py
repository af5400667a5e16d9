"""Lesson 2's figure: what bounded retries cost, against the chance that one attempt fails.

Both panels come from faultlines.models.retries.retry_cost, the model the lesson's widget and
numbers use: expected attempts per task, and the failed attempts among them (wasted work), for
several `max_retries`. The point marked is the page's worked case, p = 0.3 with Ray's default 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.models.retries import RetryCost, retry_cost

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RETRIES = (0, 1, 3, 5)  # 3 is Ray's default max_retries for tasks
GRID = tuple(i / 40 for i in range(41))
PAGE_P, PAGE_RETRIES = 0.3, 3  # the page's worked case


@dataclass(frozen=True)
class Curves:
    p: tuple[float, ...]
    by_retries: dict[int, tuple[RetryCost, ...]]
    page: RetryCost


def data() -> Curves:
    return Curves(
        p=GRID,
        by_retries={r: tuple(retry_cost(p, r) for p in GRID) for r in RETRIES},
        page=retry_cost(PAGE_P, PAGE_RETRIES),
    )


def describe(c: Curves) -> tuple[str, str]:
    at_half = {r: next(x for x in costs if x.p == 0.5) for r, costs in c.by_retries.items()}
    listed = "; ".join(
        f"max_retries={r}: {x.attempts:.2f} attempts and {x.wasted:.2f} wasted" for r, x in at_half.items()
    )
    alt = (
        f"Two line charts sharing an x axis, the chance p that one attempt fails, from 0 to 1, with "
        f"one line for each max_retries of {', '.join(map(str, RETRIES))}. Top: expected attempts "
        f"per task, flat at 1 when nothing fails and rising to max_retries + 1 at p = 1. Bottom: "
        f"expected failed attempts per task. At p = 0.5, {listed}. The page's case, p = "
        f"{c.page.p:g} with max_retries={c.page.max_retries}, is marked: {c.page.attempts:.3f} "
        f"attempts, {c.page.wasted:.3f} wasted, {c.page.success:.1%} of tasks succeed."
    )
    caption = (
        f"Retries multiply work by 1 + p + p² + … + p^max_retries. At p = {c.page.p:g} "
        f"Ray's default of {c.page.max_retries} costs {c.page.attempts:.3f} attempts per task and "
        f"buys {c.page.success:.1%} success; when every attempt fails (a terminal error, p = 1) "
        f"each retry is pure waste."
    )
    return alt, caption


def draw(c: Curves, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 5.0))
    top, bottom = fig.subplots(2, 1, sharex=True)
    styles = ("-", "--", "-.", ":")
    for (retries, costs), colour, ls in zip(c.by_retries.items(), ink.series, styles, strict=False):
        label = f"max_retries={retries}" + (" (default)" if retries == 3 else "")
        top.plot(c.p, [x.attempts for x in costs], color=colour, ls=ls, lw=1.8, label=label)
        bottom.plot(c.p, [x.wasted for x in costs], color=colour, ls=ls, lw=1.8)
    for ax, value in ((top, c.page.attempts), (bottom, c.page.wasted)):
        ax.plot([c.page.p], [value], "o", color=ink.text, ms=6, zorder=3)
        ax.annotate(
            f"p = {c.page.p:g}: {value:.2f}",
            (c.page.p, value),
            xytext=(-80, 16),
            textcoords="offset points",
            arrowprops={"arrowstyle": "->", "color": ink.text},
            color=ink.text,
            bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1},
        )
        ax.grid(True, lw=0.6)
    top.set_ylabel("attempts per task")
    bottom.set_ylabel("failed attempts per task")
    bottom.set_xlabel("chance p that one attempt fails")
    top.legend(loc="upper left")
    top.set_xlim(0, 1)
    fig.tight_layout()
    return fig
