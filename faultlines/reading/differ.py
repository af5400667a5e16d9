"""Where two runs of one schedule part: the first record that differs between them.

miniray replays everything it owns (its clock, ids, scheduling), so two executions of the same
schedule on the same code give the same records byte for byte; where they do not, the code read
something miniray does not replay (an unseeded random number, a uuid, the wall clock, a hash of
a str). The grader's `deterministic` invariant reports the first record that differs, as data:
which kind of record, which of its fields, and the two values, never a guess from the source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from miniray import sim

from . import table
from .table import Lane


@dataclass(frozen=True)
class Difference:
    index: int  # the record's place in both logs
    time: float  # its virtual time in the first run
    kind: str  # the record's kind, or "" when the two logs agree and something after them differs
    subject: str  # what the record is about, in the exercise's words: "gateway.charge", "task.start"
    fields: tuple[str, ...]  # the fields whose values differ ("time" when only the moment does)
    first: str  # the differing values, as the first run had them ("" when that run has no record)
    second: str  # and as the second run had them
    who: str = ""  # the attempt, node or actor the record concerns, as the first run names it

    @property
    def what(self) -> str:
        """What differed, without the learner's names or the values: what a class map groups on."""
        if not self.kind:
            return "the verdict"
        if not self.first or not self.second:
            return f"{self.subject} (in one run only)"
        return f"{self.subject} {', '.join(self.fields)}"

    @property
    def sentence(self) -> str:
        """The difference as a learner reads it."""
        if not self.kind:
            return "the two runs logged the same records and reached different verdicts"
        by = f" by {self.who}" if self.who else ""
        at = f"at {self.time:g} s, {self.subject}{by}"
        if not self.first or not self.second:
            which = "first" if self.first else "second"
            return f"{at} happened in the {which} run only ({self.first or self.second})"
        if self.fields == ("kind",):
            return f"at {self.time:g} s, one run logged {self.first} where the other logged {self.second}"
        return f"{at} had {self.first} in one run and {self.second} in the other"


def _subject(record: sim.Record) -> str:
    if table.of(record.kind).lane is Lane.SERVICES:
        return f"{record.get('service')}.{record.get('op')}"
    return record.kind


def _who(record: sim.Record) -> str:
    for key in ("attempt", "actor", "node"):
        value = record.get(key)
        if value:
            return str(value)
    return ""


def _values(record: sim.Record, names: Sequence[str]) -> str:
    return ", ".join(f"{name} {_shown(record, name)}" for name in names)


def _shown(record: sim.Record, name: str) -> str:
    value: Any = record.time if name == "time" else record.get(name)
    return repr(value) if isinstance(value, str) else str(value)


def _between(index: int, a: sim.Record, b: sim.Record) -> Difference:
    keys = list(dict.fromkeys([*a.fields, *b.fields]))
    names = tuple(k for k in keys if a.get(k) != b.get(k))
    if a.kind != b.kind:
        names = ("kind",)
    elif not names:
        names = ("time",)
    first = a.kind if names == ("kind",) else _values(a, names)
    second = b.kind if names == ("kind",) else _values(b, names)
    return Difference(index, a.time, a.kind, _subject(a), names, first, second, _who(a))


def _one_sided(index: int, record: sim.Record, in_first: bool) -> Difference:
    line = f"{_subject(record)}{' by ' + _who(record) if _who(record) else ''}"
    first, second = (line, "") if in_first else ("", line)
    return Difference(index, record.time, record.kind, _subject(record), (), first, second, _who(record))


def shown(records: Sequence[sim.Record]) -> list[sim.Record]:
    """The records a learner sees: bookkeeping (noise, an object freed when its last reference
    goes) left out. When Python frees an object held in a reference cycle is the garbage
    collector's choice, not the code's, so two faithful runs may free it at different moments."""
    quiet = table.where(_noise)
    return [r for r in records if r.kind not in quiet]


def _noise(row: table.Row) -> bool:
    return row.noise


def first_difference(a: Sequence[sim.Record], b: Sequence[sim.Record]) -> Difference | None:
    """The first record where two runs' logs part, or None when they are the same record for
    record (a caller that sees other differences, effects or verdicts, says "the verdict")."""
    for index, (ra, rb) in enumerate(zip(a, b)):
        if ra.line() != rb.line():
            return _between(index, ra, rb)
    if len(a) != len(b):
        longer, in_first = (a, True) if len(a) > len(b) else (b, False)
        return _one_sided(min(len(a), len(b)), longer[min(len(a), len(b))], in_first)
    return None


SAME_RECORDS = Difference(0, 0.0, "", "", (), "", "")  # the logs agree; effects or verdict differ
