"""State over time as inline SVG: rows of bands on a virtual-time axis, the one chart the widgets share.

Lesson 1's lanes (a bar per task attempt on each worker), lesson 10's shard states and lesson 11's
trace (a row per task call) are one chart: rows, each a run of bands from a start to an end in one
state, on a time axis, with dashed rules where faults struck. The data (Strip, Row, Band) is kept
apart from how it is drawn (Look), and a chart comes in two looks:

* BANDS: full-height bands named inside, a legend, rule labels above the plot, one line each so
  rules close in time do not overprint (the fleet's ledger, the trace);
* LANES: inset bars whose outline pattern and end letter say how an attempt ended, so the chart
  reads without colour (solid finished, dashed retry, dotted reconstruction; X died, E raised), and
  fault labels under the axis.

Beside svgplot.py (line charts) and built the same way: pure Python, deterministic, colours from
JupyterLab's CSS variables where they are ink, fixed Okabe-Ito hues for states. Every band has a
tooltip and the <title> says what the chart shows, for screen readers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

from faultlines.reading.lanes import ERROR, FAILED, OK, OPEN, Lanes

from .svgplot import FAINT, INK, PALETTE, WIDTH, Marker, nice_ticks

# The ledger's states get fixed colours so every chart in the course reads the same way.
STATE_COLOURS = {
    "HEALTHY": PALETTE[2],  # green
    "SUSPECT": PALETTE[4],  # orange
    "DEAD": PALETTE[1],  # vermilion
    "RESTARTING": PALETTE[3],  # purple
    "STALE": PALETTE[5],  # sky blue
}
# How a task attempt ended (faultlines.timeline's bar kinds): a colour, and a letter after the bar.
LANE_COLOURS = {OK: PALETTE[0], FAILED: PALETTE[1], ERROR: PALETTE[3], OPEN: PALETTE[5]}
END_LETTER = {OK: "", FAILED: "X", ERROR: "E", OPEN: ">"}


@dataclass(frozen=True)
class Band:
    start: float
    end: float
    state: str
    text: str | None = None  # written inside when it fits; None: the state's name
    tip: str = ""  # the band's tooltip; empty: "<state> <start>-<end>"
    dash: str = ""  # the outline's dash pattern
    end_mark: str = ""  # a letter written just after the band


@dataclass(frozen=True)
class Row:
    label: str
    bands: Sequence[Band]


@dataclass(frozen=True)
class Look:
    """How a strip is drawn: margins, bands, their text, rules and legend."""

    left: int  # room for the row labels
    right: int
    label_gap: int  # between a row's label and the plot
    gap: int  # between rows
    inset: int  # a band's margin inside its row, above and below
    corner: int  # a band's corner radius (0: square)
    opacity: float | None  # a band's fill opacity (None: opaque)
    outline: float  # a band's stroke width
    heading_x: int | None  # where the heading starts (None: above the plot's left edge)
    ticks: int  # about how many time ticks
    text_anchor: str  # "middle": a band's text centred in it; "start": from its left end
    text_fill: str
    char_w: int  # a band's text is written when the band is char_w per character wide ...
    text_pad: int  # ... plus text_pad
    rules_below: bool  # rule labels under the axis (else above the plot, one line per rule)
    legend: bool


BANDS = Look(
    left=92,
    right=12,
    label_gap=8,
    gap=6,
    inset=0,
    corner=0,
    opacity=None,
    outline=0.5,
    heading_x=None,
    ticks=6,
    text_anchor="middle",
    text_fill="#000",  # on an opaque hue, in both themes
    char_w=8,
    text_pad=0,
    rules_below=False,
    legend=True,
)
LANES = Look(
    left=150,
    right=16,
    label_gap=6,
    gap=0,
    inset=4,
    corner=3,
    opacity=0.75,
    outline=1.2,
    heading_x=4,
    ticks=5,
    text_anchor="start",
    text_fill=INK,  # on a see-through bar: the theme's ink
    char_w=7,
    text_pad=-1,
    rules_below=True,
    legend=False,
)


@dataclass
class Strip:
    title: str
    xlabel: str
    rows: list[Row] = field(default_factory=list)
    rules: list[Marker] = field(default_factory=list)
    colours: dict[str, str] = field(default_factory=dict)
    width: int = WIDTH
    row_height: int = 26
    x_range: tuple[float, float] | None = None
    summary: str | None = None  # the <title>; None: the title, then every row's bands
    look: Look = BANDS
    ticks: list[tuple[float, str]] | None = None  # (x, label) on the axis; None: round numbers
    # More SVG drawn over the rows (the debugger's cursor and arrows), placed by the chart's geometry.
    overlay: Callable[[Plot], list[str]] | None = None


@dataclass(frozen=True)
class Plot:
    """Where a strip's rows landed, for an overlay: x in data units to pixels, each row's top."""

    px: Callable[[float], float]
    left: float
    width: float  # of the plot area
    top: float
    height: float
    pitch: float  # from one row's top to the next's
    row_height: float

    def row_top(self, index: int) -> float:
        return self.top + index * self.pitch


def colour_of(strip: Strip, state: str, order: list[str]) -> str:
    if state in strip.colours:
        return strip.colours[state]
    if state in STATE_COLOURS:
        return STATE_COLOURS[state]
    return PALETTE[order.index(state) % len(PALETTE)]


def short(state: str) -> str:
    """A band's label: the state itself, or its first letters when the band is narrow."""
    return state[:4] if len(state) > 5 else state


@dataclass(frozen=True)
class _Frame:
    """A strip's geometry, once: the plot an overlay sees, the height, x range and states in order."""

    plot: Plot
    height: float
    x_lo: float
    x_hi: float
    states: list[str]


def _states(strip: Strip) -> list[str]:
    states: list[str] = []
    for row in strip.rows:
        for band in row.bands:
            if band.state not in states:
                states.append(band.state)
    return states


def _frame(strip: Strip) -> _Frame:
    look = strip.look
    top = 36 if look.rules_below else 46 + 12 * max(0, len(strip.rules) - 1)
    pitch = strip.row_height + look.gap
    plot_w = strip.width - look.left - look.right
    plot_h = pitch * max(1, len(strip.rows))
    states = _states(strip)
    legend_rows = (len(states) + 3) // 4 if look.legend else 0
    below = 16 * len(strip.rules) if look.rules_below else 0
    height = top + plot_h + 40 + below + 20 * legend_rows
    starts = [b.start for r in strip.rows for b in r.bands] + [m.x for m in strip.rules]
    ends = [b.end for r in strip.rows for b in r.bands] + [m.x for m in strip.rules]
    x_lo, x_hi = strip.x_range or ((min(starts), max(ends)) if starts else (0.0, 1.0))
    if x_hi <= x_lo:
        x_hi = x_lo + 1.0

    def px(x: float) -> float:
        return look.left + (min(max(x, x_lo), x_hi) - x_lo) / (x_hi - x_lo) * plot_w

    plot = Plot(px, look.left, plot_w, top, plot_h, pitch, strip.row_height)
    return _Frame(plot, height, x_lo, x_hi, states)


def _summary(strip: Strip) -> str:
    if strip.summary is not None:
        return strip.summary
    described = "; ".join(
        f"{row.label}: " + ", ".join(f"{b.state} {b.start:g}-{b.end:g}" for b in row.bands)
        for row in strip.rows
    )
    return f"{strip.title}. {described}"


def _axis(f: _Frame, strip: Strip) -> list[str]:
    p, out = f.plot, []
    ticks = (
        strip.ticks
        if strip.ticks is not None
        else [(t, f"{t:g}") for t in nice_ticks(f.x_lo, f.x_hi, strip.look.ticks)]
    )
    for tick, tick_label in ticks:
        x = p.px(tick)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{p.top}" y2="{p.top + p.height}" stroke="{FAINT}"/>')
        out.append(
            f'<text x="{x:.1f}" y="{p.top + p.height + 16}" text-anchor="middle" fill="{INK}">{escape(tick_label)}</text>'
        )
    out.append(
        f'<text x="{p.left + p.width / 2}" y="{p.top + p.height + 32}" text-anchor="middle" fill="{INK}">'
        f"{escape(strip.xlabel)}</text>"
    )
    return out


def _rows(f: _Frame, strip: Strip) -> list[str]:
    p, out = f.plot, []
    for index, row in enumerate(strip.rows):
        y = p.row_top(index)
        baseline = y + strip.row_height / 2 + 4
        out.append(
            f'<text x="{p.left - strip.look.label_gap}" y="{baseline:.1f}" text-anchor="end" '
            f'fill="{INK}">{escape(row.label)}</text>'
        )
        for band in row.bands:
            out += _band(strip, band, y, baseline, p.px, colour_of(strip, band.state, f.states))
    return out


def _rules(f: _Frame, strip: Strip) -> list[str]:
    p, out = f.plot, []
    for index, rule in enumerate(strip.rules):
        x = p.px(rule.x)
        anchor = ""
        if strip.look.rules_below:
            out.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{p.top}" y2="{p.top + p.height}" stroke="{INK}" '
                'stroke-dasharray="4 3"/>'
            )
            label_x, label_y = x, p.top + p.height + 48 + 16 * index
            # A rule in the right half is labelled leftwards from it, so that a long label (a
            # fault past the run's end) stays inside the drawing.
            if x > p.left + p.width / 2:
                anchor = ' text-anchor="end"'
        else:
            label_x, label_y = x + 3, 38 + 12 * index
            out.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{label_y + 2}" y2="{p.top + p.height}" stroke="{INK}" '
                'stroke-width="1.5" stroke-dasharray="4 3"/>'
            )
        out.append(f'<text x="{label_x:.1f}" y="{label_y}"{anchor} fill="{INK}">{escape(rule.label)}</text>')
    return out


def _legend(f: _Frame, strip: Strip) -> list[str]:
    p, out = f.plot, []
    for index, state in enumerate(f.states if strip.look.legend else []):
        lx = p.left + (index % 4) * (p.width / 4)
        ly = p.top + p.height + 48 + 20 * (index // 4)
        out.append(
            f'<rect x="{lx:.1f}" y="{ly - 10}" width="14" height="12" fill="{colour_of(strip, state, f.states)}" '
            f'stroke="{INK}" stroke-width="0.5"/>'
        )
        out.append(f'<text x="{lx + 20:.1f}" y="{ly}" fill="{INK}">{escape(state)}</text>')
    return out


def render(strip: Strip) -> str:
    """The strip as one <svg> element (a string), in its look: heading, time axis, rows of
    bands, rules (faults), legend, then the overlay drawn on the plot."""
    f = _frame(strip)
    heading_x = strip.look.left if strip.look.heading_x is None else strip.look.heading_x
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {strip.width} {f.height}" '
        f'width="100%" style="max-width:{strip.width}px;font:12px sans-serif" role="img">',
        f"<title>{escape(_summary(strip))}</title>",
        f'<text x="{heading_x}" y="20" fill="{INK}" font-weight="bold">{escape(strip.title)}</text>',
    ]
    out += _axis(f, strip) + _rows(f, strip) + _rules(f, strip) + _legend(f, strip)
    if strip.overlay is not None:
        out += strip.overlay(f.plot)
    out.append("</svg>")
    return "\n".join(out)


def _band(
    strip: Strip, band: Band, y: float, baseline: float, px: Callable[[float], float], colour: str
) -> list[str]:
    """One band's rect, its text when it fits, and its end letter."""
    look = strip.look
    x0 = px(band.start)
    w = max(px(band.end) - x0, 3.0)  # a momentary state (DEAD) still shows as a tick
    tip = band.tip or f"{band.state} {band.start:g}-{band.end:g}"
    out = [
        f'<rect x="{x0:.1f}" y="{y + look.inset}" width="{w:.1f}" height="{strip.row_height - 2 * look.inset}"'
        + (f' rx="{look.corner}"' if look.corner else "")
        + f' fill="{colour}"'
        + (f' fill-opacity="{look.opacity}"' if look.opacity is not None else "")
        + f' stroke="{INK}" stroke-width="{look.outline}"'
        + (f' stroke-dasharray="{band.dash}"' if band.dash else "")
        + f"><title>{escape(tip)}</title></rect>"
    ]
    text = band.text
    if text is None:
        text = band.state if w >= look.char_w * len(band.state) + look.text_pad else short(band.state)
    if text and w >= look.char_w * len(text) + look.text_pad:
        if look.text_anchor == "middle":
            out.append(
                f'<text x="{x0 + w / 2:.1f}" y="{baseline:.1f}" text-anchor="middle" '
                f'fill="{look.text_fill}">{escape(text)}</text>'
            )
        else:
            out.append(
                f'<text x="{x0 + 4:.1f}" y="{baseline:.1f}" fill="{look.text_fill}">{escape(text)}</text>'
            )
    if band.end_mark:
        out.append(
            f'<text x="{x0 + w + 2:.1f}" y="{baseline:.1f}" fill="{INK}" font-weight="bold">{band.end_mark}</text>'
        )
    return out


def from_lanes(lanes: Lanes, title: str = "Timeline", width: int = WIDTH, end: float | None = None) -> Strip:
    """A run's lanes (faultlines/reading): one row per worker, a bar per task attempt, in LANES."""
    rows = [
        Row(
            row.name,
            [
                Band(
                    bar.start,
                    bar.end,
                    bar.kind,
                    text="#" + bar.label.split("#", 1)[-1],
                    tip=f"{bar.label}: {bar.outcome or bar.kind}",
                    dash="2 2" if bar.reconstruction else "5 3" if bar.retry else "",
                    end_mark=END_LETTER[bar.kind],
                )
                for bar in row.bars
            ],
        )
        for row in lanes.rows
    ]
    return Strip(
        title=title,
        xlabel="virtual time (s)",
        rows=rows,
        rules=[Marker(mark.time, f"{mark.label} at {mark.time:g} s") for mark in lanes.marks],
        colours=dict(LANE_COLOURS),
        width=width,
        x_range=(0.0, max(lanes.end if end is None else end, 1e-9)),
        summary=f"{title}: {lanes.attempts()} attempts, {len(lanes.failed())} did not finish",
        look=LANES,
    )


def task_rows(events: Iterable[dict], names: tuple[str, ...] | None = None) -> list[Row]:
    """Chrome trace events (`ray.timeline()`) as one row per task attempt slice, in start order,
    labelled with its name and a counter.

    Each attempt is a complete event ("ph": "X") with a start (`ts`) and a duration (`dur`) in
    microseconds. Perfetto draws one track per worker; for a short lesson workload one row per call
    reads better, and it makes a straggler obvious.
    """
    slices = [e for e in events if e.get("ph") == "X" and (names is None or e.get("name") in names)]
    slices.sort(key=lambda e: (e["ts"], e.get("name", "")))
    counts: dict[str, int] = {}
    rows = []
    for e in slices:
        name = e["name"]
        counts[name] = counts.get(name, 0) + 1
        start = e["ts"] / 1e6
        rows.append(Row(f"{name} {counts[name]}", [Band(start, start + e["dur"] / 1e6, name)]))
    return rows


def from_trace(events: Iterable[dict], title: str, names: tuple[str, ...] | None = None) -> Strip:
    """A trace as a strip of task calls, in BANDS (one thin row per call)."""
    return Strip(title=title, xlabel="virtual time (s)", rows=task_rows(events, names), row_height=16)
