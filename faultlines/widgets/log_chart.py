"""Counters on a logarithmic scale, with zero a level of its own: lesson 9's attempt counters,
where one group reaches hundreds of thousands while another stays at 0 (and the 0 is the point).

On a linear scale the spinning groups flatten every other line onto the axis: PG_C's 0 was a row
of dots there. Here each decade gets the same height, 0 sits on its own line below 1 (after a
break in the axis), a line starts when its counter exists, and every label has a place nothing
else is drawn: the title, then a band of event labels (staggered into rows where they would
touch), the plot, the x axis, and a legend row that gives each counter's last value. Colours,
dashes and text sizes are svgplot's (its WIDTH keeps the 12 px text at 8 px or more on a phone).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .svgplot import FAINT, INK, PALETTE, WIDTH

# Solid, dashed, dash-dot: a counter along the 0 line still reads as a line (svgplot's third
# pattern, dots, made PG_C's 0 a row of dots).
DASHES = ("", "6 4", "10 3 2 3")

FONT_PX = 12
CHAR_PX = 7.0  # a generous average width of a 12 px sans-serif character, to keep labels apart
ROW_PX = 16
LEFT, RIGHT = 60, 18
ZERO_GAP = 20  # between the 0 line and the 1 line: the break in the axis


@dataclass(frozen=True)
class Counter:
    label: str
    xs: Sequence[float]
    ys: Sequence[int]


@dataclass(frozen=True)
class Event:
    x: float
    label: str


def text_width(text: str) -> float:
    return len(text) * CHAR_PX


def rows_for(events: Sequence[Event], px) -> list[int]:
    """Each event label's row in the band above the plot: the first row where it clears the label
    before it by 8 px (labels are centred on their event's x)."""
    ends: list[float] = []
    rows = []
    for event in events:
        left = px(event.x) - text_width(event.label) / 2
        row = next((i for i, end in enumerate(ends) if left >= end + 8), len(ends))
        if row == len(ends):
            ends.append(0.0)
        ends[row] = left + text_width(event.label)
        rows.append(row)
    return rows


def decades(top: int) -> list[int]:
    """The powers of ten the axis marks, 1 up to `top`, every other one past five decades."""
    count = max(1, math.ceil(math.log10(max(top, 10)) - 1e-9))
    step = 2 if count > 5 else 1
    return [10**k for k in range(0, count + 1, step)]


def tick_label(value: int) -> str:
    for size, suffix in ((10**6, "M"), (10**3, "k")):
        if value >= size:
            return f"{value // size}{suffix}"
    return str(value)


@dataclass(frozen=True)
class _Axes:
    x_lo: float
    x_hi: float
    left: float
    right: float
    top: float  # the 1 line's highest decade's y
    one: float  # y of the value 1
    zero: float  # y of the value 0
    top_decade: int

    def px(self, x: float) -> float:
        return self.left + (x - self.x_lo) / (self.x_hi - self.x_lo) * (self.right - self.left)

    def py(self, value: float) -> float:
        if value <= 0:
            return self.zero
        share = math.log10(value) / math.log10(self.top_decade)
        return self.one - share * (self.one - self.top)


def _axes(counters: Sequence[Counter], events: Sequence[Event], plot_top: float, plot_bottom: float) -> _Axes:
    xs = [x for c in counters for x in c.xs] + [e.x for e in events]
    peak = max((y for c in counters for y in c.ys), default=1)
    top_decade = decades(peak)[-1]
    if top_decade < peak:
        top_decade *= 10
    zero = plot_bottom - 8
    return _Axes(min(xs), max(xs), LEFT, WIDTH - RIGHT, plot_top + 8, zero - ZERO_GAP, zero, top_decade)


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{INK}"{extra}>{escape(text)}</text>'


def _y_axis(a: _Axes, plot_top: float, plot_bottom: float, ylabel: str) -> list[str]:
    out = [
        f'<rect x="{a.left}" y="{plot_top}" width="{a.right - a.left}" height="{plot_bottom - plot_top}" '
        f'fill="none" stroke="{FAINT}"/>'
    ]
    for value in [0, *decades(a.top_decade)]:
        y = a.py(value)
        out.append(f'<line x1="{a.left}" x2="{a.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{FAINT}"/>')
        out.append(_text(a.left - 6, y + 4, tick_label(value), "end"))
    # The break between 0 and 1: two short slashes across the axis.
    mid = (a.zero + a.one) / 2
    for dy in (-3, 3):
        out.append(
            f'<line x1="{a.left - 5}" x2="{a.left + 5}" y1="{mid + dy + 2:.1f}" y2="{mid + dy - 2:.1f}" '
            f'stroke="{INK}"/>'
        )
    out.append(
        f'<text transform="translate(14 {(plot_top + plot_bottom) / 2:.1f}) rotate(-90)" text-anchor="middle" '
        f'fill="{INK}">{escape(ylabel)}</text>'
    )
    return out


def _x_axis(a: _Axes, plot_bottom: float, xlabel: str, ticks: Sequence[float]) -> list[str]:
    out = [_text(a.px(t), plot_bottom + 16, f"{t:g}", "middle") for t in ticks]
    out.append(_text((a.left + a.right) / 2, plot_bottom + 33, xlabel, "middle"))
    return out


def _events(
    a: _Axes, events: Sequence[Event], band_top: float, plot_top: float, plot_bottom: float
) -> list[str]:
    out = []
    for event, row in zip(events, rows_for(events, a.px), strict=True):
        x = a.px(event.x)
        y = band_top + FONT_PX + row * ROW_PX
        out.append(_text(x, y, event.label, "middle", ' class="fl-event"'))
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y + 4:.1f}" y2="{plot_bottom}" stroke="{INK}" '
            'stroke-dasharray="3 3" stroke-width="0.8"/>'
        )
    return out


def _line(a: _Axes, index: int, counter: Counter) -> str:
    colour = PALETTE[index % len(PALETTE)]
    dash = DASHES[index % len(DASHES)]
    points = " ".join(f"{a.px(x):.1f},{a.py(y):.1f}" for x, y in zip(counter.xs, counter.ys, strict=True))
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<polyline class="fl-counter" data-label="{escape(counter.label, quote=True)}" points="{points}" '
        f'fill="none" stroke="{colour}" stroke-width="2.5"{dashes}/>'
    )


def _legend(counters: Sequence[Counter], y: float) -> list[str]:
    """One row: each counter's sample line, its name and its last value."""
    entries = [f"{c.label} {c.ys[-1]:,}" if c.ys else c.label for c in counters]
    widths = [28 + text_width(text) for text in entries]
    gap = 18
    x = (WIDTH - sum(widths) - gap * (len(widths) - 1)) / 2
    out = []
    for index, (text, width) in enumerate(zip(entries, widths, strict=True)):
        colour, dash = PALETTE[index % len(PALETTE)], DASHES[index % len(DASHES)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{x:.1f}" x2="{x + 22:.1f}" y1="{y - 4}" y2="{y - 4}" stroke="{colour}" '
            f'stroke-width="2.5"{dashes}/>'
        )
        out.append(_text(x + 28, y, text, extra=' class="fl-legend"'))
        x += width + gap
    return out


def render(
    title: str,
    counters: Sequence[Counter],
    events: Sequence[Event],
    xlabel: str,
    ylabel: str,
    xticks: Sequence[float],
    height: int = 340,
) -> str:
    """The chart as one <svg> (a string), its <title> the chart's title for screen readers."""
    band_top = 28
    probe = _axes(counters, events, 0, 1)  # the x mapping alone decides the event rows
    rows = max(rows_for(events, probe.px), default=-1) + 1
    plot_top = band_top + rows * ROW_PX + 10
    plot_bottom = height - 62
    a = _axes(counters, events, plot_top, plot_bottom)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'style="max-width:{WIDTH}px;font:{FONT_PX}px sans-serif" role="img">',
        f"<title>{escape(title)}</title>",
        _text(8, 18, title, extra=' font-weight="bold"'),
    ]
    out += _y_axis(a, plot_top, plot_bottom, ylabel)
    out += _x_axis(a, plot_bottom, xlabel, xticks)
    out += _events(a, events, band_top, plot_top, plot_bottom)
    out += [_line(a, index, counter) for index, counter in enumerate(counters) if len(counter.xs) > 0]
    out += _legend(counters, height - 8)
    out.append("</svg>")
    return "\n".join(out)
