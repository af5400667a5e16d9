"""The debugger's view as HTML: the lanes, the cursor's controls, the state at the cursor, the log
and the table of every event, plus the data the front end (static/debugger.js) steps through.

The HTML alone already shows the run at its starting event (the moment the invariant broke), so
a notebook that cannot run the front end still shows something true. The front end then moves
the cursor: it replays the rows each event changed (model.Event.changes) up to the cursor, and
shows the lines the run logged up to there.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from faultlines.reading.state import COLUMNS, TITLES, Row

from . import lanes
from .compare import Passing, first_difference
from .model import Event, Model
from .session import Snapshot
from .sites import short_site

LOG_LINES = 10  # the log panel shows this many lines up to the cursor


def value_text(event: Event, total: int) -> str:
    """The slider's aria-valuetext: "0.000 s, event 5 of 27"."""
    return f"{event.time:.3f} s, event {event.index + 1} of {total}"


def _code(event: Event) -> str:
    if not event.site:
        return ""
    why = f" ({event.why})" if event.why else ""
    return f"{short_site(event.site)}{why}: {event.code}" if event.code else f"{short_site(event.site)}{why}"


def data(snap: Snapshot, passing: Passing | None) -> dict[str, Any]:
    model = snap.model
    out: dict[str, Any] = {
        "n": len(model.events),
        "start": start_index(snap),
        "columns": {k: list(v) for k, v in COLUMNS.items()},
        "events": [
            [e.time, e.text, _code(e), 1 if e.noise else 0, e.fault, [list(c) for c in e.changes]]
            for e in model.events
        ],
    }
    if passing is not None:
        diff = first_difference(model, passing.model)
        out["compare"] = {
            "name": passing.name,
            "sentence": diff.sentence(passing.name)
            if diff
            else f"Your run and {passing.name} do not differ.",
            "index": diff.index if diff else None,
        }
    return out


def start_index(snap: Snapshot) -> int:
    if not snap.model.events:
        return 0
    if snap.moment is not None:
        return snap.moment.index
    return len(snap.model.events) - 1


def _state_tables(model: Model, at: int) -> str:
    used = {table for e in model.events for table, _, _ in e.changes}
    tables = model.state_at(at)
    parts = []
    for name, columns in COLUMNS.items():
        if name not in used:
            continue
        rows = tables[name]
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
        parts.append(
            f'<table class="fl-dbg-table" data-table="{name}"{"" if rows else " hidden"}>'
            f"<caption>{escape(TITLES[name])}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{_rows(rows.values())}</tbody></table>"
        )
    return "".join(parts)


def _rows(rows: Any) -> str:
    out = []
    for row in rows:
        cells: Row = row
        out.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    return "".join(out)


def _log(model: Model, at: int) -> str:
    shown = [e for e in model.events[: at + 1] if not e.noise][-LOG_LINES:]
    return "".join(f'<li value="{e.index + 1}">{e.time:.3f} s: {escape(e.text)}</li>' for e in shown)


def _event_table(model: Model, at: int) -> str:
    rows = []
    for e in model.events:
        current = ' class="fl-dbg-current" aria-current="true"' if e.index == at else ""
        later = ' class="fl-dbg-later-row"' if e.index > at else ""
        what = escape(e.text) + (" <i>(bookkeeping)</i>" if e.noise else "")
        if e.fault:
            what = f"<b>fault</b> {what}"
        rows.append(
            f'<tr{current or later}><th scope="row">{e.index + 1}</th><td>{e.time:.3f}</td>'
            f"<td>{what}</td><td>{escape(_code(e))}</td></tr>"
        )
    return (
        '<table class="fl-dbg-events"><caption>Every event of the run, in order</caption>'
        '<thead><tr><th scope="col">#</th><th scope="col">time (s)</th><th scope="col">what happened</th>'
        '<th scope="col">your code</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
    )


# The key to the passing run's outlines: a sample of one, as lanes._ghost draws it.
GHOST_KEY = (
    '<svg class="fl-dbg-ghost-key" width="30" height="14" viewBox="0 0 30 14" aria-hidden="true">'
    '<rect class="fl-dbg-ghost-bar" x="1" y="1" width="28" height="12" fill="none" stroke="#0072B2" '
    'stroke-width="2" stroke-dasharray="6 3"/></svg>'
)


def _compare(passing: Passing | None, snap: Snapshot) -> str:
    """The compare row: none on a run that passes (a what-if that removed the fault), offered
    where a passing run was found, said to be missing where none was."""
    if not snap.verdict.failed:
        return ""
    if passing is None:
        why = "no passing run was found (no fault's removal makes it pass, and none was recorded)"
        return (
            '<p class="fl-dbg-compare-row"><label><input type="checkbox" class="fl-dbg-compare" disabled> '
            f'Compare with a passing run</label> <span class="fl-dbg-note">({escape(why)})</span></p>'
        )
    return (
        '<p class="fl-dbg-compare-row"><label><input type="checkbox" class="fl-dbg-compare"> '
        f"Compare with a passing run</label> "
        f'<span class="fl-dbg-note">{GHOST_KEY} outlines: the bars of {escape(passing.name)}</span></p>'
        '<p class="fl-dbg-diff" hidden></p>'
    )


def view(snap: Snapshot, passing: Passing | None = None) -> str:
    """The stepping part of the debugger (everything but the what-if controls), as one <div>."""
    model = snap.model
    if not model.events:
        return (
            '<div class="fl-dbg fl-dbg-empty"><p>This run logged no events: the check ran no cluster '
            "(a course model, not a run), so there is nothing to step through.</p></div>"
        )
    at = start_index(snap)
    total = len(model.events)
    if not snap.verdict.failed:  # nothing to compare a passing run with
        passing = None
    diff = first_difference(model, passing.model) if passing is not None else None
    marks = lanes.Marks(
        violation=snap.moment.index if snap.moment else None,
        violation_label=snap.moment.label if snap.moment else "",
        ghost=lanes.build(passing.model) if passing is not None else None,
        differ_at=diff.index if diff else None,
        start=at,
        span=len(passing.model.events) if passing is not None else 0,
    )
    event = model.events[at]
    payload = json.dumps(data(snap, passing), separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="fl-dbg" data-events="{total}" data-schedule="{escape("; ".join(snap.schedule))}">'
        f'<script type="application/json" class="fl-dbg-data">{payload}</script>'
        # Focusable: on a phone the lanes scroll sideways, and ← → (which move the cursor) keep the
        # cursor in view there.
        '<p class="fl-dbg-lanes-title">The run, event by event</p>'
        '<div class="fl-dbg-lanes" tabindex="0" role="group" '
        'aria-label="Lanes of the run: a row per node and worker process">'
        f"{lanes.render(model, marks)}</div>"
        f'<p class="fl-dbg-lanes-caption">{escape(lanes.CAPTION)}</p>'
        '<div class="fl-dbg-cursor-row">'
        '<button type="button" class="fl-dbg-prev">Previous event</button>'
        f'<input type="range" class="fl-dbg-slider" min="1" max="{total}" step="1" value="{at + 1}" '
        f'aria-label="Virtual time" aria-valuetext="{escape(value_text(event, total))}">'
        '<button type="button" class="fl-dbg-next">Next event</button></div>'
        f'<p class="fl-dbg-status" role="status">Event {at + 1} of {total} at {event.time:.3f} s: '
        f"{escape(event.text)}</p>"
        f'<p class="fl-dbg-code"{"" if event.site else " hidden"}><span>Your code:</span> '
        f"<code>{escape(_code(event))}</code></p>"
        '<p class="fl-dbg-keys">Keys: ← and → step one event, Home and End go to the first and last.</p>'
        + _compare(passing, snap)
        + f'<div class="fl-dbg-state">{_state_tables(model, at)}</div>'
        '<h5 class="fl-dbg-h">The log up to this event <span class="fl-dbg-note">(objects going out of '
        "scope left out)</span></h5>"
        f'<ol class="fl-dbg-log">{_log(model, at)}</ol>'
        f'<details class="fl-dbg-all"><summary>All {total} events as a table</summary>'
        f"{_event_table(model, at)}</details></div>"
    )


def head(snap: Snapshot) -> str:
    """The verdict and the schedule, above the what-if controls."""
    verdict = snap.verdict
    schedule = "; ".join(snap.schedule) if snap.schedule else "(no faults)"
    state = "fl-dbg-bad" if verdict.failed else "fl-dbg-good"
    mark = "✘" if verdict.failed else "✔"
    where = ""
    if snap.moment is not None:
        when = "judged when the run ended, at" if snap.moment.at_end else "broken at"
        where = f" ({when} event {snap.moment.index + 1})"
    missed = snap.model.reading.never_struck()
    if missed and snap.model.events:
        where += f". Never struck in this run: {'; '.join(missed)} (its attempt or moment never came)"
    return (
        f'<div class="fl-dbg-head" data-schedule="{escape("; ".join(snap.schedule))}">'
        f'<p class="fl-dbg-verdict {state}" role="status">'
        f"{mark} {escape(verdict.sentence())}{escape(where)}</p>"
        f'<p class="fl-dbg-schedule">{escape(snap.title)}, schedule <code>{escape(schedule)}</code></p></div>'
    )
