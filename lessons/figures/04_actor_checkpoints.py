"""Lesson 4's figure: how many answered increments a restarted actor forgets, by checkpoint spacing.

The lesson's counter story (20 calls, the process exits every 7th call, max_restarts=2,
max_task_retries=-1) run on miniray once per checkpoint spacing (faultlines.stories.actor_lives,
the model the widget and the page's numbers use). A restart recovers to the last checkpoint, so
every increment since then was answered to the caller and is gone from the actor.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.actor_lives import run_counter

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NUMBERS = Path(__file__).resolve().parents[1] / "numbers/04_actors.py"
SPACINGS = tuple(range(0, 11))  # 0: no checkpoint at all


@dataclass(frozen=True)
class Spacing:
    story: dict[str, int]  # run_counter's options, from the page
    page_every: int  # the spacing the page's checkpointed run uses
    every: tuple[int, ...]
    forgotten: tuple[int, ...]  # increments answered but no longer held, per spacing
    checkpoints: tuple[int, ...]  # checkpoint writes that landed, per spacing
    restarts: tuple[int, ...]


def data() -> Spacing:
    page = runpy.run_path(str(NUMBERS))
    runs = [run_counter(**page["STORY"], checkpoint_every=k) for k in SPACINGS]
    return Spacing(
        story=dict(page["STORY"]),
        page_every=page["CHECKPOINT_EVERY"],
        every=SPACINGS,
        forgotten=tuple(r.forgotten for r in runs),
        checkpoints=tuple(r.checkpoints for r in runs),
        restarts=tuple(r.lives - 1 for r in runs),
    )


def _label(k: int) -> str:
    return "none" if k == 0 else str(k)


def describe(s: Spacing) -> tuple[str, str]:
    listed = "; ".join(
        f"{_label(k)}: {f} forgotten, {c} checkpoints" for k, f, c in zip(s.every, s.forgotten, s.checkpoints)
    )
    page = s.every.index(s.page_every)
    alt = (
        f"Bar chart, one pair of bars per checkpoint spacing (a checkpoint every N calls, or none), "
        f"for the counter actor that exits every {s.story['crash_every']}th call of "
        f"{s.story['calls']}: increments it answered but forgot after its restarts, and checkpoints "
        f"it wrote. {listed}."
    )
    lossless = [k for k, f in zip(s.every, s.forgotten) if k > 0 and f == 0]
    unwritten = [k for k, c in zip(s.every, s.checkpoints) if k > 0 and c == 0]
    caption = (
        f"The same {s.story['calls']} calls with max_restarts={s.story['max_restarts']}: without a "
        f"checkpoint the actor forgets {s.forgotten[0]} increments it had confirmed; every "
        f"{s.page_every} calls it forgets {s.forgotten[page]} and writes {s.checkpoints[page]} "
        f"checkpoints. A restart returns to the last checkpoint, so what is lost is the calls since "
        f"then: nothing at a spacing of {' or '.join(map(str, lossless))}"
        + (
            f", and from {unwritten[0]} on no checkpoint lands before the process exits, as if "
            f"there were none."
            if unwritten
            else "."
        )
    )
    return alt, caption


def draw(s: Spacing, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.4))
    ax = fig.subplots()
    xs = list(range(len(s.every)))
    width = 0.4
    ax.bar([x - width / 2 for x in xs], s.forgotten, width, color=ink.red, label="increments forgotten")
    ax.bar(
        [x + width / 2 for x in xs],
        s.checkpoints,
        width,
        color=ink.background,
        edgecolor=ink.blue,
        hatch="///",
        label="checkpoints written",
    )
    for x, f in zip(xs, s.forgotten):
        ax.text(x - width / 2, f + 0.2, str(f), ha="center", va="bottom", color=ink.red, fontsize=9)
    ax.set_xticks(xs, [_label(k) for k in s.every])
    ax.set_xlabel("checkpoint every N calls")
    ax.set_ylabel("count over the run")
    ax.set_ylim(0, max(max(s.forgotten), max(s.checkpoints)) * 1.25 + 1)
    ax.grid(True, axis="y", lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig
