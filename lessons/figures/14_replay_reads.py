"""Lesson 14's figure: the story's three draws, as a consumer read them before the node died and
as the rebuild made them again, with the seed taken from the clock and passed as an argument.

Both panels come from the story itself (faultlines.stories.replays), run on miniray as the
page's numbers are: the clock's seed gives other draws on the rebuild, the argument the same.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories import replays as story
from miniray import sim

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SEED = 7  # the argument the fixed story passes


@dataclass(frozen=True)
class Reads:
    clock: tuple[tuple[int, ...], tuple[int, ...]]  # (first read, after the rebuild)
    argument: tuple[tuple[int, ...], tuple[int, ...]]


def _draws(seed: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    value = sim.run(functools.partial(story.replays, seed=seed), seed=0).value
    return tuple(value["first"]["draws"]), tuple(value["again"]["draws"])


def data() -> Reads:
    return Reads(clock=_draws(None), argument=_draws(SEED))


def describe(r: Reads) -> tuple[str, str]:
    def listed(pair: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
        return f"first read {', '.join(map(str, pair[0]))}; after the rebuild {', '.join(map(str, pair[1]))}"

    alt = (
        "Two dot charts side by side, each with three draws on the x axis and their values, 0 to 99, "
        f"on the y axis; circles are the values a consumer read before the node died, crosses the "
        f"values the rebuild made. Left, seeded by the clock: {listed(r.clock)}. Right, seeded by "
        f"the argument {SEED}: {listed(r.argument)}."
    )
    same = sum(a == b for a, b in zip(*r.argument, strict=True))
    moved = sum(a != b for a, b in zip(*r.clock, strict=True))
    caption = (
        f"The same ObjectRef, read twice. Seeded by the clock, {moved} of 3 draws come back "
        f"different after the rebuild, with no error; seeded by an argument, {same} of 3 are the same."
    )
    return alt, caption


def draw(r: Reads, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 2.8))
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (title, (first, again)) in zip(
        axes, (("seed: the clock", r.clock), (f"seed: argument {SEED}", r.argument)), strict=True
    ):
        xs = [1, 2, 3]
        ax.plot(xs, first, "o", ms=9, mfc="none", mew=1.8, color=ink.blue, label="first read")
        ax.plot(xs, again, "x", ms=9, mew=2.0, color=ink.red, label="after the rebuild")
        ax.set_title(title, color=ink.text)
        ax.set_xticks(xs)
        ax.set_xlim(0.5, 3.5)
        ax.set_ylim(0, 100)
        ax.set_xlabel("draw")
        ax.grid(True, lw=0.6)
    axes[0].set_ylabel("value")
    axes[0].legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig
