"""Lesson 9's wait-for picture: who waits for whom after both node losses, under each queue policy.

Each placement group is a box with its state and its scheduling-attempt counter; an arrow goes
from a group that waits to the group holding the capacity it needs, labelled with that node.
The arrows that form a cycle are drawn red. The data is miniray's own diagnosis
(`miniray.placement.diagnose()`) of the lesson's run (lose N2, ask for PG_C, lose N3), once under
Ray 2.60's queue policy and once under backoff: the cycle is in both, and PG_C's counter, zero
under Ray 2.60's policy, is printed even when it is zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.pg_recovery import SeedCase
from miniray import sim

if TYPE_CHECKING:
    from matplotlib.figure import Figure

POLICIES = ("ray-2.60", "backoff")
GROUPS = ("PG_A", "PG_B", "PG_C")


@dataclass(frozen=True)
class Picture:
    policy: str
    states: dict[str, str]
    attempts: dict[str, int]
    edges: tuple[tuple[str, str, str], ...]  # (waiter, holder, node)
    cycles: tuple[tuple[str, ...], ...]

    def in_cycle(self, waiter: str, holder: str) -> bool:
        return any((c[i], c[i + 1]) == (waiter, holder) for c in self.cycles for i in range(len(c) - 1))


def _picture(policy: str) -> Picture:
    with SeedCase(policy) as case:
        case.lose(2)
        sim.sleep(1.0)
        case.add_pg_c()
        case.groups["PG_C"].wait(timeout_seconds=5)
        case.lose(3)
        sim.sleep(3.0)
        diagnosis = case.diagnosis()
        return Picture(
            policy=policy,
            states={name: case.state(name) for name in GROUPS},
            attempts={name: case.attempts(name) for name in GROUPS},
            edges=tuple((w, h, n) for w, h, n in diagnosis.edges),
            cycles=tuple(tuple(c) for c in diagnosis.cycles),
        )


def data() -> tuple[Picture, ...]:
    return tuple(_picture(policy) for policy in POLICIES)


def _say(p: Picture) -> str:
    groups = "; ".join(f"{g} {p.states[g]} with {p.attempts[g]:,} attempts" for g in GROUPS)
    waits = "; ".join(f"{w} waits for {h} (which holds {n})" for w, h, n in p.edges) or "no waits"
    cycles = ", ".join(" -> ".join(c) for c in p.cycles) or "none"
    return f"Under the {p.policy} policy: {groups}. {waits}. Cycle: {cycles}."


def describe(pictures: tuple[Picture, ...]) -> tuple[str, str]:
    alt = (
        "Two wait-for graphs, one per queue policy, each with three boxes for the placement groups "
        "PG_A, PG_B and PG_C, each box giving the group's state and scheduling-attempt count, and "
        "arrows from a waiting group to the group that holds what it needs. "
        + " ".join(_say(p) for p in pictures)
    )
    first, second = pictures
    caption = (
        f"The cycle {' -> '.join(first.cycles[0]) if first.cycles else '(none)'} stands under both "
        f"policies: each group holds a bundle the other needs, and no queue order changes that. What "
        f"backoff changes is PG_C: {first.attempts['PG_C']} attempts and {first.states['PG_C']} under "
        f"Ray 2.60's policy, {second.attempts['PG_C']} attempt and {second.states['PG_C']} under backoff."
    )
    return alt, caption


POSITIONS = {"PG_A": (0.19, 0.6), "PG_B": (0.81, 0.6), "PG_C": (0.5, 0.14)}
BOX_W, BOX_H = 0.36, 0.26


def draw(pictures: tuple[Picture, ...], ink: Ink) -> Figure:
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    fig = Figure(figsize=(7.2, 3.6))
    axes = fig.subplots(1, 2)
    for ax, p in zip(axes, pictures):
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.axis("off")
        ax.set_title(f"queue policy: {p.policy}", fontsize=10.5, color=ink.text)
        for waiter, holder, node in p.edges:
            (x0, y0), (x1, y1) = POSITIONS[waiter], POSITIONS[holder]
            cyclic = p.in_cycle(waiter, holder)
            upper = x0 < x1  # the two arrows of a pair arc on opposite sides
            ax.add_patch(
                FancyArrowPatch(
                    (x0 + (BOX_W / 2 if upper else -BOX_W / 2), y0 + (0.05 if upper else -0.05)),
                    (x1 - (BOX_W / 2 if upper else -BOX_W / 2), y1 + (0.05 if upper else -0.05)),
                    arrowstyle="-|>",
                    mutation_scale=12,
                    color=ink.red if cyclic else ink.text,
                    linewidth=1.8 if cyclic else 1.2,
                    connectionstyle=f"arc3,rad={-0.35 if upper else -0.35}",
                )
            )
            ax.text(
                0.5,
                y0 + (0.3 if upper else -0.24),
                f"{waiter} waits for {node}",
                ha="center",
                va="center",
                fontsize=8.5,
                color=ink.red if cyclic else ink.text,
            )
        if p.cycles:
            ax.text(
                0.5, 0.6, "cycle", ha="center", va="center", fontsize=9.5, fontweight="bold", color=ink.red
            )
        for name, (x, y) in POSITIONS.items():
            starved = p.attempts[name] == 0
            edge = ink.ochre if starved else ink.blue
            ax.add_patch(
                FancyBboxPatch(
                    (x - BOX_W / 2, y - BOX_H / 2),
                    BOX_W,
                    BOX_H,
                    boxstyle="round,pad=0.01,rounding_size=0.03",
                    facecolor=ink.background,
                    edgecolor=edge,
                    linewidth=1.8 if starved else 1.3,
                )
            )
            ax.text(
                x, y + 0.075, name, ha="center", va="center", fontsize=10, fontweight="bold", color=ink.text
            )
            ax.text(x, y - 0.005, p.states[name], ha="center", va="center", fontsize=8, color=ink.muted)
            ax.text(
                x,
                y - 0.08,
                f"{p.attempts[name]:,} attempts",
                ha="center",
                va="center",
                fontsize=8,
                color=ink.ochre if starved else ink.muted,
                fontweight="bold" if starved else "normal",
            )
    fig.tight_layout()
    return fig
