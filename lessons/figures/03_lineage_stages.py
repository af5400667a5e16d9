"""Lesson 3's figure: seconds lost to a node loss, by the stage at which the node dies.

Seed 001's 12-stage pipeline, 40 s a stage, run on miniray (the lineage calculator's `measure`):
once relying on lineage alone, once materializing the stage output (50 s to write, 5 s to read
back). Each point is a pair of miniray runs minus a clean run; the lesson's numbers module quotes
the pair at stage 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.widgets.lineage_calculator import STAGES, measure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

STAGE_S, PERSIST_S, RELOAD_S = 40.0, 50.0, 5.0  # as lessons/numbers/03_lineage.py
PAGE_STAGE = 7


@dataclass(frozen=True)
class Losses:
    stages: tuple[int, ...]
    lineage_s: tuple[float, ...]  # extra seconds after a loss at that stage, lineage only
    materialize_s: tuple[float, ...]  # the same with the stage output materialized


def data() -> Losses:
    runs = [measure(STAGE_S, k, PERSIST_S, RELOAD_S) for k in range(1, STAGES + 1)]
    return Losses(
        stages=tuple(range(1, STAGES + 1)),
        lineage_s=tuple(r["lineage"] for r in runs),
        materialize_s=tuple(r["materialize"] for r in runs),
    )


def crossover(losses: Losses) -> int | None:
    """The first stage at which a loss costs lineage more than materializing did."""
    return next((k for k, a, b in zip(losses.stages, losses.lineage_s, losses.materialize_s) if a > b), None)


def describe(losses: Losses) -> tuple[str, str]:
    i = losses.stages.index(PAGE_STAGE)
    cross = crossover(losses)
    low, high = min(losses.materialize_s), max(losses.materialize_s)
    flat = f"{low:g} s" if low == high else f"{low:g} to {high:g} s"
    alt = (
        f"Line chart of the extra seconds a run takes when the node is lost, against the stage "
        f"(1 to {len(losses.stages)}) at which it is lost, measured on miniray. Relying on "
        f"lineage, the cost grows by {STAGE_S:g} s a stage, from {losses.lineage_s[0]:g} s to "
        f"{losses.lineage_s[-1]:g} s. Materializing costs {flat} whatever the stage. At stage {PAGE_STAGE}: "
        f"{losses.lineage_s[i]:g} s against {losses.materialize_s[i]:g} s."
    )
    caption = (
        f"One loss, measured on miniray: lineage re-runs every stage up to the loss, so its cost "
        f"climbs with the stage; materializing pays {PERSIST_S:g} s to write and {RELOAD_S:g} s "
        f"to read back, flat. From stage {cross} on, a single loss costs lineage more. Whether "
        f"that is worth {PERSIST_S:g} s on every run depends on how often the node is lost."
    )
    return alt, caption


def draw(losses: Losses, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.5))
    ax = fig.subplots()
    ax.plot(losses.stages, losses.lineage_s, "o-", color=ink.blue, lw=1.8, ms=5, label="rely on lineage")
    ax.plot(
        losses.stages, losses.materialize_s, "s--", color=ink.red, lw=1.8, ms=5, label="materialize the stage"
    )
    i = losses.stages.index(PAGE_STAGE)
    ax.annotate(
        f"stage {PAGE_STAGE}: {losses.lineage_s[i]:g} s\nagainst {losses.materialize_s[i]:g} s",
        (PAGE_STAGE, losses.lineage_s[i]),
        xytext=(-110, 20),
        textcoords="offset points",
        arrowprops={"arrowstyle": "->", "color": ink.text},
        color=ink.text,
    )
    ax.set_xticks(losses.stages)
    ax.set_xlabel("stage at which the node is lost")
    ax.set_ylabel("extra seconds for the run")
    ax.set_ylim(0, max(losses.lineage_s) * 1.1)
    ax.grid(True, lw=0.6)
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig
