"""Lesson 9's wait-for picture in the widget: who waits for whom at the end of a run, as
miniray's diagnosis (`miniray.placement.diagnose()`) found it, for the policy the learner chose.

Three boxes, one per placement group, each with its state and its scheduling-attempt counter (a
0 that starves is marked); an arrow from a group that waits to the group holding the node it
needs, labelled with that node; the arrows of a cycle drawn in the error colour, with the word
"cycle" between them. The page's figure (lessons/figures/09_wait_for_cycle.py) draws the same
graph for both policies side by side; the widget draws the one its policy gives, so a learner
who switches to backoff sees the cycle stay while PG_C's counter moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from .svgplot import INK, PALETTE, WIDTH

CYCLE = "var(--jp-error-color1, #d32f2f)"
STARVED = "#E69F00"  # Okabe-Ito orange, as the figure marks a starved group
HEIGHT = 250
BOX_W, BOX_H = 150, 60
# Each group's box centre; the two that can wait for each other face each other.
PLACES = {"PG_A": (95.0, 100.0), "PG_B": (WIDTH - 95.0, 100.0), "PG_C": (WIDTH / 2, 205.0)}


def _text(x: float, y: float, text: str, colour: str = INK, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" fill="{colour}"{extra}>{escape(text)}</text>'


def _box(name: str, state: str, attempts: int, index: int, starved: bool) -> list[str]:
    x, y = PLACES[name]
    edge = STARVED if starved else PALETTE[index % len(PALETTE)]
    counted = f"{attempts:,} attempt{'' if attempts == 1 else 's'}"
    return [
        f'<rect class="fl-group" data-pg="{name}" x="{x - BOX_W / 2:.1f}" y="{y - BOX_H / 2:.1f}" '
        f'width="{BOX_W}" height="{BOX_H}" rx="6" fill="none" stroke="{edge}" '
        f'stroke-width="{3 if starved else 2}"/>',
        _text(x, y - 10, name, extra=' font-weight="bold"'),
        _text(x, y + 6, state),
        _text(x, y + 22, counted, extra=' font-weight="bold"' if starved else ""),
    ]


def _arrow(start: tuple[float, float], end: tuple[float, float], bend: float, colour: str, width: float):
    """A quadratic curve from start to end bowed by `bend` px, its head drawn as a triangle (no
    <marker>: an id would repeat in a notebook that shows the widget twice)."""
    (x0, y0), (x1, y1) = start, end
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + bend
    angle = math.atan2(y1 - cy, x1 - cx)
    head = [
        (x1, y1),
        (x1 - 11 * math.cos(angle - 0.4), y1 - 11 * math.sin(angle - 0.4)),
        (x1 - 11 * math.cos(angle + 0.4), y1 - 11 * math.sin(angle + 0.4)),
    ]
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in head)
    return [
        f'<path d="M{x0:.1f},{y0:.1f} Q{cx:.1f},{cy:.1f} {x1:.1f},{y1:.1f}" fill="none" stroke="{colour}" '
        f'stroke-width="{width}"/>',
        f'<polygon points="{points}" fill="{colour}"/>',
    ]


def _edge(waiter: str, holder: str, node: str, cyclic: bool) -> list[str]:
    (xw, yw), (xh, yh) = PLACES[waiter], PLACES[holder]
    upper = xw < xh  # the two arrows of a pair bow to opposite sides
    side = -1 if upper else 1
    start = (xw + (BOX_W / 2 if upper else -BOX_W / 2), yw + side * 12)
    end = (xh - (BOX_W / 2 if upper else -BOX_W / 2), yh + side * 12)
    colour = CYCLE if cyclic else INK
    label_y = yw + side * 48 + (4 if upper else 8)
    return [
        f'<g class="fl-wait{" fl-wait--cycle" if cyclic else ""}" data-waiter="{waiter}" data-holder="{holder}">',
        *_arrow(start, end, side * 44, colour, 2.5 if cyclic else 1.5),
        _text((xw + xh) / 2, label_y, f"{waiter} waits for {node}", colour),
        "</g>",
    ]


def in_cycle(cycles: Sequence[Sequence[str]], waiter: str, holder: str) -> bool:
    return any((c[i], c[i + 1]) == (waiter, holder) for c in cycles for i in range(len(c) - 1))


def words(
    states: Mapping[str, str],
    attempts: Mapping[str, int],
    edges: Sequence[tuple[str, str, str]],
    cycles: Sequence[Sequence[str]],
) -> str:
    """The picture in one sentence: its <title>, for a screen reader."""
    groups = "; ".join(f"{name} {states[name]} with {attempts[name]:,} attempts" for name in PLACES)
    waits = "; ".join(f"{w} waits for {h}, which holds {n}" for w, h, n in edges) or "no group waits"
    found = ", ".join(" -> ".join(c) for c in cycles) or "none"
    return f"Who waits for whom: {groups}. {waits}. Cycle: {found}."


def render(
    policy: str,
    at: float,
    states: Mapping[str, str],
    attempts: Mapping[str, int],
    edges: Sequence[tuple[str, str, str]],
    cycles: Sequence[Sequence[str]],
    asked: Sequence[str] = (),
) -> str:
    """The graph as one <svg>; `asked`: groups that exist (a 0 there is starvation, not absence)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'style="max-width:{WIDTH}px;font:12px sans-serif" role="img" class="fl-wait-for">',
        f"<title>{escape(words(states, attempts, edges, cycles))}</title>",
        f'<text x="8" y="18" fill="{INK}" font-weight="bold">'
        f"{escape(f'Who waits for whom at t={at:g} s, policy {policy}')}</text>",
    ]
    for waiter, holder, node in edges:
        out += _edge(waiter, holder, node, in_cycle(cycles, waiter, holder))
    if cycles:
        out.append(_text(WIDTH / 2, PLACES["PG_A"][1] + 5, "cycle", CYCLE, ' font-weight="bold"'))
    for index, name in enumerate(PLACES):
        starved = name in asked and attempts[name] == 0
        out += _box(name, states[name], attempts[name], index, starved)
    out.append("</svg>")
    return "\n".join(out)
