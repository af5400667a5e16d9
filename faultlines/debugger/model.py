"""A run folded into the cluster's state after each event: what the debugger's cursor shows.

Only a `miniray.sim.Run` is read (its records, journals and faults), never the runtime, so the
same fold works on a run made a moment ago, on one replayed from a token and on one recorded at
build time as data. Each record is one event (a fault's own state change, such as a node it
froze, joins its fault's); many events share one instant of virtual time,
so the cursor moves by event, not by second.

The state is a few tables (nodes, workers, tasks, actors, objects, placement groups and the
exercise's services: the ledger, the charges, the store), each a dict from a key to its row of
text cells. After each event only the rows it touched are noted (`Event.changes`), so a front
end replays the changes up to the cursor instead of carrying one snapshot per event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from miniray.sim import Kind

from .kinds import COLUMNS, Change, Row, Tables

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# Records of a fault's own state change, logged right after its `fault` record: folded into
# that event, so the cursor steps over the fault once.
OF_THE_FAULT = frozenset({Kind.NODE_PAUSED})


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


@dataclass
class Model:
    events: list[Event]
    faults: list[str]  # the run's schedule, as tokens
    end_time: float
    outcome: str  # what the run returned or raised, in one line
    journals: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    nodes: list[str] = field(default_factory=list)  # in the order they joined

    def state_at(self, index: int) -> dict[str, dict[str, Row]]:
        """Every table as it was right after event `index` (-1: before the first event)."""
        tables: dict[str, dict[str, Row]] = {name: {} for name in COLUMNS}
        for event in self.events[: index + 1]:
            apply(tables, event.changes)
        return tables

    def fault_events(self) -> list[tuple[int, str]]:
        return [(e.index, e.fault) for e in self.events if e.fault]


def apply(tables: dict[str, dict[str, Row]], changes: Iterable[Change]) -> None:
    for table, key, row in changes:
        if row is None:
            tables[table].pop(key, None)
        else:
            tables[table][key] = row


def outcome_of(value: Any, error: BaseException | None) -> str:
    if error is not None:
        text = str(error).strip().splitlines()
        return f"raised {type(error).__name__}: {text[0] if text else ''}".rstrip(": ")
    shown = ADDRESS.sub("", repr(value))  # "<Store object at 0x7f...>": the address changes every run
    return f"returned {shown if len(shown) <= 160 else shown[:157] + '...'}"


def is_noise(kind: str, fields: Mapping[str, Any]) -> bool:
    """Bookkeeping a learner need not read to follow the run: an object freed because no one
    holds a reference any more."""
    return kind == "object.free" and fields.get("reason") == "out_of_scope"


def crash_token(record_fields: Mapping[str, Any], faults: list[str]) -> str:
    """The schedule's crash fault that a worker.exit record reports, if it was one."""
    attempt = str(record_fields.get("attempt", ""))
    if "injected crash" not in str(record_fields.get("reason", "")):
        return ""
    return next((t for t in faults if t.startswith(f"crash {attempt} ")), "")


def fold(
    records: Iterable[Any],
    faults: Iterable[str] = (),
    *,
    outcome: str = "",
    journals: Mapping[str, list[tuple[str, str]]] | None = None,
) -> Model:
    """Fold `records` (sim.Record, or anything with index/time/step/kind/fields/line()) into a
    Model. Code links are added after, by sites.attach."""
    schedule = list(faults)
    state = Tables()
    events: list[Event] = []
    end = 0.0
    for record in records:
        fields = dict(record.fields)
        text = state.on(record.kind, fields)
        if record.kind in OF_THE_FAULT and events:
            # What the fault just before did, at once: one event with it, as the learner saw it.
            last = events[-1]
            events[-1] = replace(last, changes=last.changes + state.take_changes())
            continue
        fault = ""
        if record.kind == "fault":
            fault = str(fields["fault"])
        elif record.kind == "worker.exit":
            fault = crash_token(fields, schedule)
        events.append(
            Event(
                index=len(events),
                time=float(record.time),
                step=int(record.step),
                kind=str(record.kind),
                fields=fields,
                text=text,
                line=record.line(),
                noise=is_noise(record.kind, fields),
                fault=fault,
                changes=state.take_changes(),
                record=record.index,
            )
        )
        end = max(end, float(record.time))
    return Model(
        events=events,
        faults=schedule,
        end_time=end,
        outcome=outcome,
        journals={k: list(v) for k, v in (journals or {}).items()},
        nodes=list(state.node_ids.values()),
    )
