"""The event log: what happened, when, in a form that is byte-for-byte stable for one seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import EventSpec, check


def _fmt(value: Any) -> str:
    kind = type(value)  # the common exact types first: a search formats thousands of records
    if kind is str:
        return value
    if kind is int:
        return str(value)
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_fmt(v)}" for k, v in value.items()) + "}"
    return str(value)


class Record:
    """One thing that happened: its place in the log, its virtual time, the kernel event it
    happened in (`step`: kernel events run so far, the unit of `after_event` faults), its kind and
    fields. Only time, kind and fields appear in its line."""

    __slots__ = ("index", "time", "step", "kind", "fields")

    def __init__(self, index: int, time: float, kind: str, fields: dict, step: int = 0):
        self.index = index
        self.time = time
        self.step = step
        self.kind = kind
        self.fields = fields

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def line(self) -> str:
        return f"{self.time:12.6f} {self.kind}" + "".join([f" {k}={_fmt(v)}" for k, v in self.fields.items()])

    def __repr__(self) -> str:
        return f"<Record {self.line()}>"


class EventLog:
    """Records in order. Given a catalogue (miniray/events.py), it refuses kinds and fields the
    catalogue does not list; a model with its own kinds (the course's fleet) passes none."""

    def __init__(
        self, catalogue: dict[str, EventSpec] | None = None, steps: Callable[[], int] | None = None
    ) -> None:
        self.records: list[Record] = []
        self.listeners: list[Callable[[Record], None]] = []
        self.catalogue = catalogue
        self._steps = steps  # the kernel's event count, noted on each record

    def emit(self, time: float, kind: str, **fields: Any) -> Record:
        if self.catalogue is not None:
            check(self.catalogue, kind, fields)
        step = self._steps() if self._steps is not None else 0
        rec = Record(len(self.records), time, str(kind), fields, step)
        self.records.append(rec)
        for listener in self.listeners:
            listener(rec)
        return rec

    def of_kind(self, *kinds: str) -> list[Record]:
        return [r for r in self.records if r.kind in kinds]

    def text(self) -> str:
        return "\n".join(r.line() for r in self.records) + ("\n" if self.records else "")
