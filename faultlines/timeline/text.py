"""Lanes as fixed-width text: one line per worker, a character per time step.

    node:1 worker 10002  [#1==][#5=X
    node:2 worker 10005  [#4==]      [#5/2]
A bar opens with `[`, is filled with `=` (first attempt), `~` (a retry) or `+` (a lineage
reconstruction), and closes with `]` when it finished, `X` when its worker or node died, `E`
when the body raised and `>` when the run ended first. Faults are listed under the lanes with
the column they happened at, so the text reads the same in a terminal, a page and a screen reader.
"""

from __future__ import annotations

import math

from .lanes import ERROR, FAILED, OK, OPEN, Bar, Lanes

CLOSE = {OK: "]", FAILED: "X", ERROR: "E", OPEN: ">"}


def _fill(bar: Bar) -> str:
    return "+" if bar.reconstruction else "~" if bar.retry else "="


def _labels(label: str) -> list[str]:
    """Ways to write 'square#5/2' in a bar, longest first: 'square#5/2', 'square/2' (only for
    the first call of a function, where the number says nothing), '#5/2'; '/1' is dropped."""
    if "#" not in label:
        return [label]
    name, call = label.split("#", 1)
    ordinal, _, attempt = call.partition("/")
    suffix = "" if attempt in ("", "1") else f"/{attempt}"
    found = [f"{name}#{ordinal}{suffix}"]
    if ordinal == "1":
        found.append(f"{name}{suffix}")
    found.append(f"#{ordinal}{suffix}")
    return found


def render_text(lanes: Lanes, per_second: int = 6, end: float | None = None) -> str:
    """The lanes drawn `per_second` characters to a virtual second."""
    end = lanes.end if end is None else end
    width = max(1, math.ceil(end * per_second)) + 1
    name_w = max([len(r.name) for r in lanes.rows] + [len("t (s)")])
    axis = [" "] * (width + 4)
    for second in range(int(end) + 1):
        col = second * per_second
        for i, ch in enumerate(str(second)):
            if col + i < len(axis):
                axis[col + i] = ch
    lines = [f"{'t (s)':<{name_w}}  {''.join(axis).rstrip()}"]
    for row in lanes.rows:
        cells = [" "] * (width + 8)
        for bar in row.bars:
            # A bar covers columns [a, b): a 1 s bar at 6 per second is "[#5/2]".
            a = round(bar.start * per_second)
            b = max(a + 2, round(bar.end * per_second))
            cells[a] = "["
            for col in range(a + 1, b - 1):
                cells[col] = _fill(bar)
            cells[b - 1] = CLOSE[bar.kind]
            text = next((t for t in _labels(bar.label) if len(t) <= b - a - 2), "")
            for i, ch in enumerate(text):
                cells[a + 1 + i] = ch
        lines.append(f"{row.name:<{name_w}}  {''.join(cells).rstrip()}")
    for mark in lanes.marks:
        col = round(mark.time * per_second)
        lines.append(f"{'':<{name_w}}  {' ' * col}^ {mark.label} at t={mark.time:g} s")
    return "\n".join(lines)
