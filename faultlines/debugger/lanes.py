"""The run as lanes on the event axis: the course's state chart (widgets/statechart.py, LANES look)
with one row per node and, under it, one per worker process, then actors and placement groups.

The x axis counts events, not seconds: a run often does everything at one instant (fault00's
starter runs all its events at 0.000 s), and the cursor moves by event. The axis labels give
the virtual time where it changes. Event n (1-based, as the slider counts) spans x in [n-1, n).

An overlay adds what the chart itself does not draw: the cursor and the shade over the events
after it (the front end moves both), the moment an invariant broke, arrows for object copies a
get or a task argument made, and, hidden until "Compare with a passing run" is ticked, the
passing run's bars as outlines in the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from html import escape

from faultlines.reading.lanes import ERROR, FAILED, OK, OPEN, Spans
from faultlines.widgets import statechart
from faultlines.widgets.statechart import END_LETTER, LANE_COLOURS, LANES, Band, Plot, Row, Strip
from faultlines.widgets.svgplot import INK, PALETTE, Marker

from . import pinned, top_marks
from .model import Event, Model

NODE_COLOURS = {"alive": PALETTE[2], "paused": PALETTE[4], "draining": PALETTE[5], "dead": PALETTE[1]}
ACTOR_COLOURS = {
    "ALIVE": PALETTE[2],
    "RESTARTING": PALETTE[3],
    "DEAD": PALETTE[1],
    "PENDING_CREATION": PALETTE[5],
}
GROUP_COLOURS = {
    "CREATED": PALETTE[2],
    "RESCHEDULING": PALETTE[4],
    "PENDING": PALETTE[5],
    "REMOVED": PALETTE[1],
}
MIN_TICK_GAP = 56  # pixels between two time labels on the axis
MAX_PX_PER_EVENT = 40  # wider than this, a bar's name is shortened rather than the chart widened


@dataclass
class Lanes:
    rows: list[Row] = field(default_factory=list)
    # (event, object, from the node row of an earlier copy or "", to the reader's node row)
    copies: list[tuple[int, str, str, str]] = field(default_factory=list)
    events: int = 0
    marks: list[tuple[int, str, str]] = field(default_factory=list)  # (event, row, what happened)


def _bands(changes: list[tuple[int, str]], end: int, text: dict[str, str] | None = None) -> list[Band]:
    """State bands from (event index, new state) changes, the last lasting to `end`."""
    merged: list[tuple[int, str]] = []
    for change in changes:  # a state said again (an actor's start, then its ALIVE) is one band
        if not merged or merged[-1][1] != change[1]:
            merged.append(change)
    bands = []
    for (start, state), nxt in zip(merged, merged[1:] + [(end, "")]):
        if nxt[0] > start:
            label = (text or {}).get(state, state)
            bands.append(Band(start, nxt[0], state, text=label, tip=f"{state}: events {start + 1}-{nxt[0]}"))
    return bands


def label_px(text: str) -> float:
    """What a bar's text needs: its characters, and the room the bar leaves around them."""
    return LANES.char_w * len(text) + LANES.text_pad + 8


def fitting_label(attempt: str, pixels: float) -> str:
    """ "clean#2/1" if it fits a bar `pixels` wide, else its name shortened ("proce…#2/1"), else
    the name's first letters alone ("cl…"): a bar always names its function or method (the
    tooltip has the whole), "" only where not even two letters fit."""
    call, _, number = attempt.rpartition("/")
    name, _, ordinal = call.rpartition("#")
    tail = f"#{ordinal}/{number}" if name else ""
    name = name or call
    shortened = [f"{name[:k]}…{tail}" for k in range(len(name) - 1, 0, -1)]
    bare = [f"{name[:k]}…" for k in range(min(len(name) - 1, 4), 1, -1)]
    for text in [attempt, *shortened, *bare]:
        if label_px(text) <= pixels:
            return text
    return ""


def px_per_event(model: Model, events: int) -> float:
    """20 px an event, or more, up to MAX_PX_PER_EVENT, so that every attempt's bar holds its
    whole name ("count#3/1" over two events needs 35): a run of up to 200 events. A longer one
    is drawn 4 px an event (`geometry`), its names shortened."""
    if events > 200:
        return (geometry(events) - LANES.left - LANES.right) / events
    need = [label_px(a.attempt) / max(1, a.end - a.start) for a in model.spans.attempts]
    return min(MAX_PX_PER_EVENT, max([20.0, *need]))


def _attempt_bar(attempt: str, start: int, end: int, kind: str, px_per_event: float) -> Band:
    name, _, number = attempt.rpartition("/")
    retry = number.isdigit() and int(number) > 1
    how = {OK: "returned", FAILED: "died", ERROR: "raised", OPEN: "still running at the end"}[kind]
    return Band(
        start,
        end,
        kind,
        text=fitting_label(attempt, (end - start) * px_per_event),
        tip=f"{attempt}: events {start + 1}-{end}, {how}",
        dash="5 3" if retry else "",
        end_mark=END_LETTER[kind],
    )


def build(model: Model, px_per_event: float = 24.0) -> Lanes:
    """The chart's rows from the run's reading's lanes on the event axis (faultlines/reading)."""
    spans: Spans = model.spans
    n = spans.events
    bars: dict[str, list[Band]] = {}  # worker pid -> its attempts' bars
    for a in spans.attempts:
        bars.setdefault(a.worker, []).append(_attempt_bar(a.attempt, a.start, a.end, a.kind, px_per_event))
    lanes = Lanes(copies=list(spans.copies), events=n, marks=list(spans.marks))
    for node, changes in spans.nodes.items():
        lanes.rows.append(Row(node, _bands(changes, n)))
        for pid in spans.workers.get(node, []):
            lanes.rows.append(Row(f"worker {pid}", sorted(bars.get(pid, []), key=lambda b: b.start)))
    for actor, changes in spans.actors.items():
        lanes.rows.append(Row(actor, _bands(changes, n, {"PENDING_CREATION": "pending"})))
    for group, changes in spans.groups.items():
        lanes.rows.append(Row(f"group {group}", _bands(changes, n)))
    return lanes


def seconds(t: float, span: float | None = None) -> str:
    """A virtual time for an axis label: "0 s", "4.5 µs", "12 ms", "1.5 s". With `span` (the
    run's last time), in that span's unit to two decimals, so that a run of 1.5 s reads
    "1.5 s", not "1.50004 s", and a burst 4.5 µs after the start reads "0 s" there."""
    if span is None:
        span = t
    if t == 0 or span >= 1:
        return f"{round(t, 2):g} s"
    if span < 1e-3:
        return f"{round(t * 1e6, 2):g} µs"
    return f"{round(t * 1e3, 2):g} ms"


def time_ticks(events: list[Event], px_per_event: float) -> list[tuple[float, str]]:
    """A label where virtual time changes (and at the start), none closer than MIN_TICK_GAP, and
    none that reads as the label before it (times closer than the axis can tell apart)."""
    span = max((e.time for e in events), default=0.0)
    ticks: list[tuple[float, str]] = []
    last_time: float | None = None
    for event in events:
        if event.time != last_time:
            x = float(event.index)
            label = seconds(event.time, span)
            fits = not ticks or (x - ticks[-1][0]) * px_per_event >= MIN_TICK_GAP
            if fits and (not ticks or label != ticks[-1][1]):
                ticks.append((x, label))
            last_time = event.time
    return ticks


@dataclass(frozen=True)
class Marks:
    """What the overlay draws besides the cursor."""

    violation: int | None = None  # event index where the invariant broke
    violation_label: str = ""
    ghost: Lanes | None = None  # the passing run, as outlines
    differ_at: int | None = None  # the first event where the two runs differ
    start: int = 0  # the cursor's first position (event index)
    span: int = 0  # events on the axis: more than the run's own when the passing run is longer


def _overlay(lanes: Lanes, marks: Marks, row_index: dict[str, int], gap: int) -> Callable[[Plot], list[str]]:
    def draw(plot: Plot) -> list[str]:
        out = _frame(plot, lanes, marks)
        if marks.ghost is not None:
            out += _ghost(plot, marks, row_index)
        out += _copies(plot, lanes, row_index)
        out += _marks(plot, lanes, row_index)
        if marks.violation is not None:
            out += top_marks.violation(plot, marks.violation, marks.violation_label)
        if marks.ghost is not None and marks.differ_at is not None:
            out += top_marks.differ(plot, marks.differ_at, marks.violation, marks.violation_label)
        out += pinned.draw(plot, [row.label for row in lanes.rows], gap)
        x = plot.px(marks.start + 0.5)
        out.append(
            f'<line class="fl-dbg-cursor" x1="{x:.1f}" x2="{x:.1f}" y1="{plot.top - 4:.1f}" '
            f'y2="{plot.top + plot.height + 4:.1f}" stroke="{INK}" stroke-width="2"/>'
        )
        return out

    return draw


def _frame(plot: Plot, lanes: Lanes, marks: Marks) -> list[str]:
    """The plot's area (what the front end measures) and the shade over the events after the cursor."""
    later = plot.px(marks.start + 1)
    return [
        f'<rect class="fl-dbg-plot" x="{plot.left:.1f}" y="{plot.top:.1f}" width="{plot.width:.1f}" '
        f'height="{plot.height:.1f}" fill="transparent" data-events="{lanes.events}" '
        f'data-span="{max(marks.span, lanes.events)}"/>',
        # the events after the cursor, shaded (the front end moves it with the cursor)
        f'<rect class="fl-dbg-later" x="{later:.1f}" y="{plot.top:.1f}" '
        f'width="{max(plot.left + plot.width - later, 0):.1f}" height="{plot.height:.1f}" '
        'fill="var(--jp-layout-color0, #fff)" fill-opacity="0.55" pointer-events="none"/>',
    ]


def _ghost(plot: Plot, marks: Marks, row_index: dict[str, int]) -> list[str]:
    """The passing run's bars as dashed outlines around the row's own bars' place, in a colour of
    their own (debugger.css: 3:1 or more on either theme's page), hidden until "Compare with a
    passing run" is ticked; the key beside the checkbox names them."""
    assert marks.ghost is not None
    out = ['<g class="fl-dbg-ghost" visibility="hidden">']
    for row in marks.ghost.rows:
        if row.label not in row_index:
            continue
        y = plot.row_top(row_index[row.label]) + 1.5
        for band in row.bands:
            x0, x1 = plot.px(band.start), plot.px(band.end)
            out.append(
                f'<rect class="fl-dbg-ghost-bar" x="{x0 - 1.5:.1f}" y="{y:.1f}" width="{max(x1 - x0, 3) + 3:.1f}" '
                f'height="{plot.row_height - 3:.1f}" fill="none" stroke="{PALETTE[0]}" stroke-width="2" '
                'stroke-dasharray="6 3">'
                f"<title>passing run: {escape(band.tip)}</title></rect>"
            )
    out.append("</g>")
    return out


def _copies(plot: Plot, lanes: Lanes, row_index: dict[str, int]) -> list[str]:
    """An arrow for each copy a read made, from the node of an earlier copy to the reader's."""
    out = []
    for index, obj, source, node in lanes.copies:
        if node not in row_index:
            continue
        x = plot.px(index + 0.5)
        y_to = plot.row_top(row_index[node]) + plot.row_height / 2
        y_from = plot.row_top(row_index[source]) + plot.row_height / 2 if source in row_index else plot.top
        tip = -4 if y_to > y_from else 4
        out.append(
            f'<path d="M{x:.1f},{y_from:.1f} L{x:.1f},{y_to + tip:.1f} M{x - 3:.1f},{y_to + 2 * tip:.1f} '
            f'L{x:.1f},{y_to + tip:.1f} L{x + 3:.1f},{y_to + 2 * tip:.1f}" stroke="{PALETTE[0]}" fill="none" '
            f'stroke-width="1.5"><title>a read copies object {escape(obj)} to {escape(node)} '
            f"(event {index + 1})</title></path>"
        )
    return out


def _marks(plot: Plot, lanes: Lanes, row_index: dict[str, int]) -> list[str]:
    """A diamond on a row where a record's row in the reading's table asks for a mark."""
    out = []
    for index, row, text in lanes.marks:
        if row not in row_index:
            continue
        x, y = plot.px(index + 0.5), plot.row_top(row_index[row]) + plot.row_height / 2
        out.append(
            f'<path class="fl-dbg-mark" d="M{x:.1f},{y - 5:.1f} L{x + 5:.1f},{y:.1f} L{x:.1f},{y + 5:.1f} '
            f'L{x - 5:.1f},{y:.1f} Z" fill="{PALETTE[4]}" stroke="{INK}" stroke-width="1">'
            f"<title>{escape(text)} (event {index + 1})</title></path>"
        )
    return out


def geometry(events: int) -> int:
    """A long run's drawn width (more than 200 events): 4 px an event, at most 1600 px."""
    return min(LANES.left + LANES.right + 4 * events, 1600)


def strip(model: Model, marks: Marks, title: str = "The run, event by event") -> Strip:
    """The chart, drawn at its own size (render), its label column as wide as its longest label.
    Its title and caption are the HTML around it (render.view): an empty title and caption here."""
    n = max(1, len(model.events), marks.span)
    per_event = px_per_event(model, n)
    lanes = build(model, per_event)
    look = replace(LANES, left=pinned.label_column([row.label for row in lanes.rows], LANES.label_gap))
    width = round(look.left + look.right + per_event * n)
    row_index = {row.label: i for i, row in enumerate(lanes.rows)}
    rules = [Marker(index + 0.5, f"{token} (event {index + 1})") for index, token in model.fault_events()]
    attempts = sum(len(r.bands) for r in lanes.rows if r.label.startswith("worker "))
    summary = (
        f"{title}: {len(model.nodes)} nodes, {attempts} task attempts, {len(rules)} faults, "
        f"{len(model.events)} events. The table of events below says the same in words."
    )
    return Strip(
        title="",
        xlabel="",
        rows=lanes.rows,
        rules=rules,
        colours={**LANE_COLOURS, **NODE_COLOURS, **ACTOR_COLOURS, **GROUP_COLOURS},
        width=width,
        x_range=(0.0, float(n)),
        summary=summary,
        look=look,
        ticks=time_ticks(model.events, per_event),
        overlay=_overlay(lanes, marks, row_index, look.label_gap),
    )


CAPTION = "Events in order; the axis labels give the virtual time."


def render(model: Model, marks: Marks) -> str:
    """The chart as SVG, at its drawn width: never scaled down to its box, whose scroll shows the
    rest (its text stays 12 px; the label column stays, pinned.py)."""
    chart = strip(model, marks)
    return statechart.render(chart).replace(' width="100%" ', f' width="{chart.width}" ', 1)
