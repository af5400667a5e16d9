"""A run as the debugger's cursor shows it: the run's reading (faultlines/reading), stepped event
by event.

The reading folds the records once: each record an event (a fault's own state change, such as a
node it froze, joins its fault's), with its sentence and the rows of the state tables it touched,
and the lanes on the event axis. Only a `miniray.sim.Run`'s records are read, never the runtime,
so the same model comes from a run made a moment ago, one replayed from a token and one recorded
at build time as data. Many events share one instant of virtual time, so the cursor moves by
event, not by second. A front end replays the changes up to the cursor instead of carrying one
snapshot per event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from faultlines.reading import Event, Reading, Spans
from faultlines.reading.state import COLUMNS, Change, Row

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

__all__ = ["Event", "Model", "apply", "fold", "of_reading", "outcome_of"]


@dataclass
class Model:
    events: list[Event]
    faults: list[str]  # the run's schedule, as tokens
    end_time: float
    outcome: str  # what the run returned or raised, in one line
    journals: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    nodes: list[str] = field(default_factory=list)  # in the order they joined
    reading: Reading = field(default_factory=lambda: Reading([]))  # what every view here asks

    @property
    def spans(self) -> Spans:
        """The run's lanes on the event axis."""
        return self.reading.spans

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


def of_reading(reading: Reading, outcome: str = "") -> Model:
    """The model of a run's reading. Code links are added after, by sites.attach."""
    events = list(reading.events)
    return Model(
        events=events,
        faults=list(reading.faults),
        end_time=max([0.0] + [e.time for e in events]),
        outcome=outcome,
        journals={k: list(v) for k, v in reading.journals.items()},
        nodes=list(reading.tables.node_ids.values()),
        reading=reading,
    )


def fold(
    records: Iterable[Any],
    faults: Iterable[str] = (),
    *,
    outcome: str = "",
    journals: Mapping[str, list[tuple[str, str]]] | None = None,
) -> Model:
    """The model of `records` (sim.Record, or anything with index/time/step/kind/fields/line())."""
    return of_reading(Reading(list(records), faults, journals), outcome)
