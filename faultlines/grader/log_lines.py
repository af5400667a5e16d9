"""A failing run's event log as a learner reads it in a report: what happened, nothing else.

miniray's log is complete and exact (the determinism check compares it byte for byte); a report
shows a filtered view of the same records, as the run's reading gives them (faultlines/reading:
its table says which records are bookkeeping and which a fault's own line already says):
  - no bookkeeping: objects freed when their last reference goes, object and node ids;
  - no record of what a fault did at once (a node it froze): the fault's own line says it;
  - no empty fields (an effect made without a fencing token has no `token=`);
  - no fields an exercise declares misleading in its setting (`Checks.hidden_fields`);
  - time in seconds with three decimals, the kind, then `field=value` pairs; an effect (a call
    to a simulated service) reads as the call it was: `effect f#1/2 db.upsert orders/17 -> ok`,
    since its key is whatever the service names the call by, not a field the learner set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from faultlines.reading import Lane, Reading, table

NOISE_FIELDS = frozenset({"id", "owner"})  # 12-hex-digit ids and owner pids: nothing to act on


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def line(record: Any, hidden: Iterable[str] = ()) -> str:
    skip = NOISE_FIELDS.union(hidden)
    f = record.fields
    if table.of(record.kind).lane is Lane.SERVICES and "key" not in skip:
        token = f" token={f['token']}" if f.get("token") and "token" not in skip else ""
        return f"{record.time:8.3f}  effect {f['attempt']} {f['service']}.{f['op']} {f['key']} -> {f['outcome']}{token}"
    if "attempt" in f:  # "process_order#1/2" names its task already
        skip = skip | {"task"}
    fields = [f"{k}={_value(v)}" for k, v in f.items() if k not in skip and v not in ("", None, [], {})]
    return f"{record.time:8.3f}  {record.kind} " + " ".join(fields)


def readable(
    reading: Reading,
    hidden_fields: dict[str, tuple[str, ...]] | None = None,
    hidden_kinds: Iterable[str] = (),
) -> list[str]:
    """One line per record worth reading (`Reading.shown`). `hidden_fields` maps a kind
    (`Kind.EFFECT`) to the fields an exercise leaves out of it; `hidden_kinds` are kinds it
    leaves out altogether."""
    hidden_fields = hidden_fields or {}
    return [line(r, hidden_fields.get(r.kind, ())).rstrip() for r in reading.shown(hidden_kinds)]
