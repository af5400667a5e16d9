"""A state timeline as inline SVG: one row per thing (a shard, a pump), coloured bands per state.

Beside svgplot.py (line charts) and built the same way: pure Python, deterministic, colours from
JupyterLab's CSS variables where they are ink, fixed Okabe-Ito hues for states. Each band also
carries its state's short name when there is room, and every row is listed in the <title>, so
the chart still says which state was when without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from .svgplot import FAINT, INK, PALETTE, Marker, nice_ticks

# The ledger's states get fixed colours so every chart in the course reads the same way.
STATE_COLOURS = {
    "HEALTHY": PALETTE[2],  # green
    "SUSPECT": PALETTE[4],  # orange
    "DEAD": PALETTE[1],  # vermilion
    "RESTARTING": PALETTE[3],  # purple
    "STALE": PALETTE[5],  # sky blue
}


@dataclass(frozen=True)
class Band:
    start: float
    end: float
    state: str


@dataclass(frozen=True)
class Row:
    label: str
    bands: Sequence[Band]


@dataclass
class Strip:
    title: str
    xlabel: str
    rows: list[Row] = field(default_factory=list)
    rules: list[Marker] = field(default_factory=list)
    colours: dict[str, str] = field(default_factory=dict)
    width: int = 640
    row_height: int = 26
    x_range: tuple[float, float] | None = None


def colour_of(strip: Strip, state: str, order: list[str]) -> str:
    if state in strip.colours:
        return strip.colours[state]
    if state in STATE_COLOURS:
        return STATE_COLOURS[state]
    return PALETTE[order.index(state) % len(PALETTE)]


def short(state: str) -> str:
    """A band's label: the state itself, or its first letters when the band is narrow."""
    return state[:4] if len(state) > 5 else state


def render(strip: Strip) -> str:
    left, right = 92, 12
    top = 46 + 12 * max(0, len(strip.rules) - 1)  # room for the rules' labels, one line each
    gap = 6
    plot_w = strip.width - left - right
    plot_h = len(strip.rows) * (strip.row_height + gap)
    states: list[str] = []
    for row in strip.rows:
        for band in row.bands:
            if band.state not in states:
                states.append(band.state)
    legend_rows = (len(states) + 3) // 4
    height = top + plot_h + 40 + 20 * legend_rows
    starts = [b.start for r in strip.rows for b in r.bands] + [m.x for m in strip.rules]
    ends = [b.end for r in strip.rows for b in r.bands] + [m.x for m in strip.rules]
    x_lo, x_hi = strip.x_range or ((min(starts), max(ends)) if starts else (0.0, 1.0))
    if x_hi <= x_lo:
        x_hi = x_lo + 1.0

    def px(x: float) -> float:
        return left + (min(max(x, x_lo), x_hi) - x_lo) / (x_hi - x_lo) * plot_w

    described = "; ".join(
        f"{row.label}: " + ", ".join(f"{b.state} {b.start:g}-{b.end:g}" for b in row.bands)
        for row in strip.rows
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {strip.width} {height}" '
        f'width="100%" style="max-width:{strip.width}px;font:12px sans-serif" role="img">',
        f"<title>{escape(strip.title)}. {escape(described)}</title>",
        f'<text x="{left}" y="20" fill="{INK}" font-weight="bold">{escape(strip.title)}</text>',
    ]
    for tick in nice_ticks(x_lo, x_hi, 6):
        x = px(tick)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" stroke="{FAINT}"/>')
        out.append(
            f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle" fill="{INK}">{tick:g}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{top + plot_h + 32}" text-anchor="middle" fill="{INK}">'
        f"{escape(strip.xlabel)}</text>"
    )
    for index, row in enumerate(strip.rows):
        y = top + index * (strip.row_height + gap)
        out.append(
            f'<text x="{left - 8}" y="{y + strip.row_height / 2 + 4:.1f}" text-anchor="end" '
            f'fill="{INK}">{escape(row.label)}</text>'
        )
        for band in row.bands:
            x0, x1 = px(band.start), px(band.end)
            colour = colour_of(strip, band.state, states)
            w = max(x1 - x0, 3.0)  # a momentary state (DEAD) still shows as a tick
            out.append(
                f'<rect x="{x0:.1f}" y="{y}" width="{w:.1f}" height="{strip.row_height}" fill="{colour}" '
                f'stroke="{INK}" stroke-width="0.5"><title>{escape(band.state)} '
                f"{band.start:g}-{band.end:g}</title></rect>"
            )
            label = band.state if w >= 8 * len(band.state) else short(band.state)
            if w >= 8 * len(label):
                out.append(
                    f'<text x="{x0 + w / 2:.1f}" y="{y + strip.row_height / 2 + 4:.1f}" text-anchor="middle" '
                    f'fill="#000">{escape(label)}</text>'
                )
    for index, rule in enumerate(strip.rules):
        x = px(rule.x)
        label_y = 38 + 12 * index  # one line per rule, so rules close in time do not overprint
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{label_y + 2}" y2="{top + plot_h}" stroke="{INK}" '
            'stroke-width="1.5" stroke-dasharray="4 3"/>'
        )
        out.append(f'<text x="{x + 3:.1f}" y="{label_y}" fill="{INK}">{escape(rule.label)}</text>')
    for index, state in enumerate(states):
        lx = left + (index % 4) * (plot_w / 4)
        ly = top + plot_h + 48 + 20 * (index // 4)
        out.append(
            f'<rect x="{lx:.1f}" y="{ly - 10}" width="14" height="12" fill="{colour_of(strip, state, states)}" '
            f'stroke="{INK}" stroke-width="0.5"/>'
        )
        out.append(f'<text x="{lx + 20:.1f}" y="{ly}" fill="{INK}">{escape(state)}</text>')
    out.append("</svg>")
    return "\n".join(out)
