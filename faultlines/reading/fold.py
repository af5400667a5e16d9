"""A run's records folded into events: each with its sentence, the rows of the state tables it
changed, whether it is bookkeeping, and the injected fault it shows striking.

Each record is one event, except what a fault did at once (a node it froze: `Strike.OF_FAULT`),
which joins its fault's event, so a learner stepping through the run steps over the fault once.
Many events share one instant of virtual time, so the events, not seconds, are the run's steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from miniray.sim import Fault, Kind, parse_token

from . import table
from .lanes import Spans
from .spans import EventAxis
from .state import Change, Tables
from .table import Strike


@dataclass(frozen=True)
class Event:
    index: int
    time: float
    step: int  # the kernel event it happened in (what after_event= counts)
    kind: str
    fields: Mapping[str, Any]
    text: str  # what happened, in words
    line: str  # the log's own line for it
    noise: bool  # bookkeeping (an object going out of scope): left out of the log panel
    fault: str = ""  # the injected fault that struck here, as the schedule writes it
    site: str = ""  # "file:line" of the learner's code that made it happen, if any
    code: str = ""  # that line's text
    why: str = ""  # how the line made it happen, when it is not plain ("the crash struck just before ...")
    changes: tuple[Change, ...] = ()
    record: int = -1  # the record's own index in the run's log (what a SiteRecorder notes)


def faults_of(tokens: Iterable[str]) -> list[tuple[str, Fault]]:
    """The schedule's miniray faults with their tokens; a grader's own moves (a second client)
    are not miniray's and are left out."""
    out = []
    for token in tokens:
        try:
            out.append((token, parse_token(token)))
        except ValueError:
            continue
    return out


def injected_crash(fields: Mapping[str, Any]) -> bool:
    """A worker.exit that an injected crash caused, not the learner's os._exit (miniray words
    the reason "injected crash before step N of ...")."""
    return "injected crash" in str(fields.get("reason", ""))


def _struck(kind: str, fields: Mapping[str, Any], crashes: Mapping[str, str]) -> str:
    if kind == Kind.FAULT:
        return str(fields["fault"])
    if kind == Kind.WORKER_EXIT and injected_crash(fields):
        return crashes.get(str(fields.get("attempt", "")), "")
    return ""


def fold(records: Iterable[Any], faults: Sequence[str] = ()) -> tuple[list[Event], Tables, Spans]:
    """The events of `records` (sim.Record, or anything with index/time/step/kind/fields/line()),
    the tables as they are after the last one, and the event axis's lanes."""
    crashes: dict[str, str] = {}
    for token, fault in faults_of(faults):
        if fault.kind == "crash":
            crashes.setdefault(fault.target, token)
    tables = Tables()
    axis = EventAxis()
    events: list[Event] = []
    for record in records:
        fields = dict(record.fields)
        row = table.of(record.kind)
        if row.change is not None:
            row.change(tables, fields)
        text = row.sentence(tables, fields)
        folded = row.strike is Strike.OF_FAULT and bool(events)
        axis.see(len(events) - 1 if folded else len(events), row, fields, text)
        if folded:
            last = events[-1]
            events[-1] = replace(last, changes=last.changes + tables.take_changes())
            continue
        events.append(
            Event(
                index=len(events),
                time=float(record.time),
                step=int(record.step),
                kind=str(record.kind),
                fields=fields,
                text=text,
                line=record.line(),
                noise=row.noise,
                fault=_struck(record.kind, fields, crashes),
                changes=tables.take_changes(),
                record=record.index,
            )
        )
    return events, tables, axis.close(len(events))
