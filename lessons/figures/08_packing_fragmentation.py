"""Lesson 8's figure: fragmentation. The largest free slot left as one-CPU tasks fill the cluster.

faultlines.stories.packing places 0 to 20 one-CPU tasks on five 4-CPU nodes in miniray, with the
default (spreading) policy and packed by hand, then asks for one 3-CPU task. The largest number
of free CPUs on any single node is what decides whether that task can start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.packing import CPUS_PER_NODE, NODES, Layout, first_refusal, sweep

if TYPE_CHECKING:
    from matplotlib.figure import Figure

BIG_CPUS = 3
LABELS = {"default": "spread (default policy)", "pack": "packed by hand"}


@dataclass(frozen=True)
class Fill:
    curves: dict[str, tuple[Layout, ...]]  # by strategy, 0 to NODES * CPUS_PER_NODE small tasks


def data() -> Fill:
    return Fill({name: tuple(sweep(name, BIG_CPUS)) for name in LABELS})


def refused_at(layouts: tuple[Layout, ...]) -> float | None:
    first = first_refusal(list(layouts))
    return None if first is None else first.utilisation


def _pct(x: float | None) -> str:
    return "never" if x is None else f"{100 * x:.0f} %"


def describe(f: Fill) -> tuple[str, str]:
    spread, packed = refused_at(f.curves["default"]), refused_at(f.curves["pack"])
    alt = (
        f"Step chart of the most free CPUs on any one node against how full the {NODES}-node, "
        f"{NODES * CPUS_PER_NODE}-CPU cluster is with one-CPU tasks. Spread by the default policy, "
        f"the largest free slot drops below {BIG_CPUS} CPUs at {_pct(spread)} full, and the "
        f"{BIG_CPUS}-CPU task is queued from there on. Packed by hand, it still starts until "
        f"{_pct(packed)} full."
    )
    caption = (
        f"A {BIG_CPUS}-CPU task needs {BIG_CPUS} free CPUs on one node. Spreading keeps every node "
        f"partly busy, so the task is queued from {_pct(spread)} utilisation with CPUs free all "
        f"over the cluster; packing the small tasks keeps the free CPUs together until {_pct(packed)}."
    )
    return alt, caption


def draw(f: Fill, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.5))
    ax = fig.subplots()
    for (name, layouts), colour, ls in zip(f.curves.items(), (ink.red, ink.blue), ("-", "--")):
        xs = [100 * layout.utilisation for layout in layouts]
        ax.step(
            xs,
            [layout.largest_free for layout in layouts],
            where="post",
            color=colour,
            ls=ls,
            lw=2,
            label=LABELS[name],
        )
        at = refused_at(layouts)
        if at is not None:
            ax.plot([100 * at], [BIG_CPUS - 1], "o", color=colour, ms=6, zorder=3)
    ax.axhline(BIG_CPUS, color=ink.muted, lw=1, ls=":")
    ax.text(
        2, BIG_CPUS + 0.1, f"the {BIG_CPUS}-CPU task fits at or above this line", color=ink.muted, fontsize=9
    )
    ax.set_xlim(0, 100)
    ax.set_ylim(0, CPUS_PER_NODE + 0.6)
    ax.set_yticks(range(CPUS_PER_NODE + 1))
    ax.set_xlabel("cluster CPUs in use by one-CPU tasks (%)")
    ax.set_ylabel("most free CPUs on one node")
    ax.grid(True, lw=0.6)
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig
