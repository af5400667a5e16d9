"""A Chrome trace (the JSON `ray.timeline` writes, which Perfetto and chrome://tracing open).

Events are plain dicts: "X" complete slices (ts and dur in microseconds), "i" instants,
"C" counters and "M" metadata that names processes and threads. The builder only orders and
rounds them, so a trace is the same bytes for the same run.
"""

from __future__ import annotations

import json
from typing import Any


def us(seconds: float) -> float:
    """Virtual seconds as trace microseconds, rounded to the nanosecond so float noise never shows."""
    return round(seconds * 1e6, 3)


class Trace:
    def __init__(self) -> None:
        self.meta: list[dict] = []
        self.events: list[tuple] = []  # (ts, seq, event): sorted by time, ties in emission order
        self._named: set = set()

    def process(self, pid: int, name: str, sort_index: int | None = None) -> None:
        if ("p", pid) in self._named:
            return
        self._named.add(("p", pid))
        self.meta.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}})
        self.meta.append(
            {
                "name": "process_sort_index",
                "ph": "M",
                "pid": pid,
                "tid": 0,
                "args": {"sort_index": pid if sort_index is None else sort_index},
            }
        )

    def thread(self, pid: int, tid: int, name: str, sort_index: int | None = None) -> None:
        key = ("t", pid, tid)
        if key in self._named:
            return
        self._named.add(key)
        self.meta.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}})
        self.meta.append(
            {
                "name": "thread_sort_index",
                "ph": "M",
                "pid": pid,
                "tid": tid,
                "args": {"sort_index": tid if sort_index is None else sort_index},
            }
        )

    def _add(self, ts: float, event: dict) -> None:
        self.events.append((ts, len(self.events), event))

    def slice(
        self,
        name: str,
        cat: str,
        start: float,
        end: float,
        pid: int,
        tid: int,
        args: dict | None = None,
        cname: str | None = None,
    ) -> None:
        event = {
            "name": name,
            "cat": cat,
            "ph": "X",
            "ts": us(start),
            "dur": us(max(0.0, end - start)),
            "pid": pid,
            "tid": tid,
            "args": _clean(args),
        }
        if cname:
            event["cname"] = cname  # a catapult colour name, as Ray's timeline sets
        self._add(start, event)

    def instant(
        self, name: str, cat: str, t: float, pid: int, tid: int, args: dict | None = None, scope: str = "t"
    ) -> None:
        self._add(
            t,
            {
                "name": name,
                "cat": cat,
                "ph": "i",
                "s": scope,
                "ts": us(t),
                "pid": pid,
                "tid": tid,
                "args": _clean(args),
            },
        )

    def counter(self, name: str, t: float, pid: int, values: dict) -> None:
        self._add(
            t,
            {
                "name": name,
                "cat": "metrics",
                "ph": "C",
                "ts": us(t),
                "pid": pid,
                "tid": 0,
                "args": _clean(values),
            },
        )

    def to_list(self) -> list[dict]:
        return list(self.meta) + [e for _, _, e in sorted(self.events, key=lambda x: (x[0], x[1]))]


def _clean(args: dict | None) -> dict:
    """JSON-safe args: numbers and strings stay, anything else becomes its str()."""
    out: dict[str, Any] = {}
    for k, v in (args or {}).items():
        if isinstance(v, (list, tuple)):
            out[k] = [x if isinstance(x, (int, float, str, bool)) or x is None else str(x) for x in v]
        elif isinstance(v, dict):
            out[k] = _clean(v)
        elif isinstance(v, (int, float, str, bool)) or v is None:
            out[k] = v
        else:
            out[k] = str(v)
    return out


def finish(events: list[dict], filename: str | None):
    """Ray's contract: return the events when no filename is given, else write them as JSON."""
    if filename is None:
        return events
    with open(filename, "w") as f:
        json.dump(events, f)
    return None
