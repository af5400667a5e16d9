"""Lesson 1's figure: the story's timeline, drawn from the run the page's event log comes from.

Six one-second `square` tasks on two 2-CPU nodes; node:1 is killed 1.5 s in. The lanes are read
from the reading of that run (faultlines.timeline), so each bar is an attempt miniray
ran: the two cut short by the kill, and their retries on node:2.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories import squares as story
from faultlines.timeline import Lanes, observe

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The fault the page's log shows, from the lesson's numbers module (one source for both).
NUMBERS = Path(__file__).resolve().parents[1] / "numbers/01_mini_runtime.py"


@dataclass(frozen=True)
class Timeline:
    fault: str
    lanes: Lanes
    clean_end_s: float  # the same story with no fault


def data() -> Timeline:
    fault = runpy.run_path(str(NUMBERS))["FAULT"]
    broken = observe(story.squares, seed=0, faults=[fault])
    clean = observe(story.squares, seed=0)
    return Timeline(fault, broken.lanes, clean.run.virtual_time)


def _call(label: str) -> str:
    """'square#5/2' -> '#5 try 2': the call and its attempt, short enough for a 1 s bar."""
    call, _, attempt = label.partition("/")
    return f"#{call.rsplit('#', 1)[-1]}" + (f" try {attempt}" if attempt and attempt != "1" else "")


def describe(t: Timeline) -> tuple[str, str]:
    bars = t.lanes.bars()
    failed = ", ".join(_call(b.label) for b in bars if not b.ok)
    retried = ", ".join(f"{_call(b.label)} at {b.start:g} s" for b in bars if b.retry)
    fault_at = next(m.time for m in t.lanes.marks)
    alt = (
        f"Timeline with one row per worker ({len(t.lanes.rows)} rows) and virtual seconds across, "
        f"{len(bars)} attempt bars in all. At {fault_at:g} s, {t.fault.split(' at=')[0]} cuts short "
        f"the attempt running there ({failed}); its retry starts on node:2 ({retried}). The run "
        f"ends at {t.lanes.end:g} s instead of the clean run's {t.clean_end_s:g} s."
    )
    caption = (
        f"The failing run, {t.fault}. The hatched bar is the attempt the dead node took with it; "
        f"the retry (green) runs on node:2, and the job ends {t.lanes.end - t.clean_end_s:g} s "
        f"later than without the fault. Every bar is an attempt from miniray's trace of the run."
    )
    return alt, caption


def draw(t: Timeline, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    rows = t.lanes.rows
    fig = Figure(figsize=(5.0, 0.55 * len(rows) + 1.5))
    ax = fig.subplots()
    for y, row in enumerate(reversed(rows)):
        for bar in row.bars:
            if not bar.ok:
                face, edge, hatch = ink.background, ink.red, "////"
            elif bar.retry:
                face, edge, hatch = ink.green, ink.background, None
            else:
                face, edge, hatch = ink.blue, ink.background, None
            ax.broken_barh(
                [(bar.start, bar.end - bar.start)],
                (y - 0.35, 0.7),
                facecolors=face,
                edgecolors=edge,
                hatch=hatch,
                lw=1.5,
            )
            failed = not bar.ok
            ax.text(
                (bar.start + bar.end) / 2,
                y,
                _call(bar.label),
                ha="center",
                va="center",
                color=ink.red if failed else ink.background,
                fontsize=9,
                # a plain patch behind the label, so the hatching never runs through it
                bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1} if failed else None,
            )
    for mark in t.lanes.marks[:1]:  # the fault itself; the node's death is the same instant here
        ax.axvline(mark.time, color=ink.red, ls="--", lw=1.2)
        ax.text(mark.time, len(rows) - 0.45, f" {mark.label}", color=ink.red, va="bottom", fontsize=9)
    ax.set_yticks(
        range(len(rows)), [r.name.replace(" worker ", "\nworker ") for r in reversed(rows)], fontsize=9
    )
    ax.set_xlim(0, t.lanes.end + 0.1)
    ax.set_ylim(-0.6, len(rows) + 0.1)
    ax.set_xlabel("virtual time (s)")
    ax.grid(True, axis="x", lw=0.6)
    ax.set_axisbelow(True)
    fig.tight_layout()
    return fig
