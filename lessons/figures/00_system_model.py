"""The primer's figure: Ray's system model on one head node and one worker node.

What a call to `f.remote(x)` touches, in the order the primer tells it: the driver (the owner of
what it submits), the raylets that lease worker processes, the worker process that runs the body,
the object store a big return goes to, the GCS that watches the nodes and places actors and
placement groups, and a placement group's bundle reserved on the worker node. The boxes and
arrows are data, so the alt text and the picture say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Box:
    key: str
    label: str
    note: str  # a second, smaller line
    node: str  # "head" or "worker"
    x: float  # centre, in the figure's 0..10 by 0..6 frame
    y: float


@dataclass(frozen=True)
class Arrow:
    start: str
    end: str
    label: str


@dataclass(frozen=True)
class SystemModel:
    boxes: tuple[Box, ...]
    arrows: tuple[Arrow, ...]
    bundle_node: str  # where the placement group's bundle sits

    def box(self, key: str) -> Box:
        return next(b for b in self.boxes if b.key == key)


def data() -> SystemModel:
    boxes = (
        Box("driver", "driver", "your script; owns its refs", "head", 2.45, 3.05),
        Box("gcs", "GCS", "nodes, actors, groups", "head", 2.45, 4.55),
        Box("raylet_head", "raylet", "leases, store, memory", "head", 2.45, 1.75),
        Box("store_head", "object store", "", "head", 2.45, 0.75),
        Box("raylet_worker", "raylet", "leases, store, memory", "worker", 7.55, 4.55),
        Box("task_worker", "worker process", "runs the task body", "worker", 6.55, 2.9),
        Box("actor_worker", "worker process", "holds an actor", "worker", 8.6, 2.9),
        Box("store_worker", "object store", "big returns live here", "worker", 7.55, 0.75),
    )
    arrows = (
        Arrow("driver", "raylet_worker", "1 lease a worker"),
        Arrow("raylet_worker", "task_worker", "2 run the task"),
        Arrow("task_worker", "store_worker", "3 big return"),
        Arrow("task_worker", "driver", "small return, inline"),
        Arrow("gcs", "raylet_worker", "health checks"),
    )
    return SystemModel(boxes, arrows, bundle_node="worker")


def describe(m: SystemModel) -> tuple[str, str]:
    head = ", ".join(f"{b.label} ({b.note})" if b.note else b.label for b in m.boxes if b.node == "head")
    worker = ", ".join(f"{b.label} ({b.note})" if b.note else b.label for b in m.boxes if b.node == "worker")
    flows = "; ".join(
        f"{a.label.lstrip('0123456789 ')}: {m.box(a.start).label} to {m.box(a.end).label}" for a in m.arrows
    )
    alt = (
        f"Diagram of a Ray cluster with two nodes. The head node holds: {head}. The worker node "
        f"holds: {worker}, and a placement group's bundle, a dashed box reserving one CPU around "
        f"the task's worker process. Arrows: {flows}."
    )
    caption = (
        "One call to f.remote(x): the driver, which owns the result, asks a raylet to lease it a "
        "worker process; the worker runs the body; a big return goes to that node's object store "
        "and a small one back to the owner. The GCS on the head node checks every node's health "
        "and places actors and placement groups; a bundle reserves resources on one node."
    )
    return alt, caption


WIDTH, HEIGHT = 1.95, 0.78  # a box, in frame units


def draw(m: SystemModel, ink: Ink) -> Figure:
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    fig = Figure(figsize=(7.2, 4.6))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.1, 6)
    ax.axis("off")
    for x0, width, title in ((0.2, 4.5, "head node"), (5.3, 4.5, "worker node")):
        ax.add_patch(
            FancyBboxPatch(
                (x0, 0.1),
                width,
                5.45,
                boxstyle="round,pad=0.02,rounding_size=0.15",
                facecolor="none",
                edgecolor=ink.muted,
                linewidth=1.2,
            )
        )
        ax.text(x0 + 0.15, 5.3, title, ha="left", va="center", fontsize=11, fontweight="bold", color=ink.text)
    bundle = [b for b in m.boxes if b.key == "task_worker"][0]
    ax.add_patch(
        FancyBboxPatch(
            (bundle.x - WIDTH / 2 - 0.15, bundle.y - HEIGHT / 2 - 0.15),
            WIDTH + 0.3,
            HEIGHT + 0.6,
            boxstyle="round,pad=0.02,rounding_size=0.1",
            facecolor="none",
            edgecolor=ink.purple,
            linewidth=1.3,
            linestyle=(0, (4, 3)),
        )
    )
    ax.text(
        bundle.x - WIDTH / 2 - 0.05,
        bundle.y + HEIGHT / 2 + 0.22,
        "bundle {CPU: 1}",
        ha="left",
        va="center",
        fontsize=8,
        color=ink.purple,
    )
    colours = {"driver": ink.blue, "gcs": ink.red, "store_head": ink.green, "store_worker": ink.green}
    for b in m.boxes:
        colour = colours.get(b.key, ink.text)
        ax.add_patch(
            FancyBboxPatch(
                (b.x - WIDTH / 2, b.y - HEIGHT / 2),
                WIDTH,
                HEIGHT,
                boxstyle="round,pad=0.02,rounding_size=0.08",
                facecolor=ink.background,
                edgecolor=colour,
                linewidth=1.6,
            )
        )
        ax.text(
            b.x,
            b.y + (0.13 if b.note else 0),
            b.label,
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
            color=colour,
        )
        if b.note:
            ax.text(b.x, b.y - 0.19, b.note, ha="center", va="center", fontsize=8, color=ink.muted)
    for a in m.arrows:
        start, end = m.box(a.start), m.box(a.end)
        inline = a.label.startswith("small")
        bend = 0.0
        ax.add_patch(
            FancyArrowPatch(
                _edge(start, end),
                _edge(end, start),
                arrowstyle="-|>",
                mutation_scale=12,
                color=ink.blue
                if a.start == "driver" or inline
                else ink.text
                if a.start != "gcs"
                else ink.red,
                linewidth=1.3,
                linestyle="--" if a.start == "gcs" else "-",
                connectionstyle=f"arc3,rad={bend}",
            )
        )
        mx, my = (start.x + end.x) / 2, (start.y + end.y) / 2
        offset = {"driver": 0.25, "gcs": 0.2}.get(a.start, -0.22 if inline else 0.0)
        if a.label.startswith(("2", "3")):
            mx += 0.75  # beside its arrow, clear of the bundle
        ax.text(
            mx,
            my + offset,
            a.label,
            ha="center",
            va="center",
            fontsize=8.5,
            color=ink.text,
            bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1.0},
        )
    return fig


def _edge(box: Box, towards: Box) -> tuple[float, float]:
    """The point on box's border on the way to towards's centre."""
    dx, dy = towards.x - box.x, towards.y - box.y
    if dx == 0 and dy == 0:
        return box.x, box.y
    scale = min(
        (WIDTH / 2) / abs(dx) if dx else float("inf"),
        (HEIGHT / 2) / abs(dy) if dy else float("inf"),
    )
    return box.x + dx * scale, box.y + dy * scale
