"""Lanes from a Chrome trace: Ray's `ray.timeline()` (or `miniray.timeline()`) read as rows of
attempt bars.

A miniray run's lanes come from its reading (`faultlines.reading`, `Reading.lanes`), built once
from its records; this reads the same shape (`Lanes`: one row per worker thread that ran
something, in the order the trace sorts them, node then pid; each attempt a bar that says how it
ended; faults, node deaths and removals as marks) out of a trace, which is what real Ray gives
and what a lab's learner exports. tests/unit/test_reading.py holds the two to the same lanes.
"""

from __future__ import annotations

from collections.abc import Iterable

from faultlines.reading.lanes import ERROR, FAILED, OK, OPEN, Bar, Lanes, Mark, Row, outcome_kind

__all__ = ["ERROR", "FAILED", "OK", "OPEN", "Bar", "Lanes", "Mark", "Row", "from_trace"]

US = 1_000_000.0  # trace timestamps are microseconds


def _mark_label(event: dict, node_names: dict[str, str]) -> str | None:
    name = str(event.get("name", ""))
    if name.startswith("fault: "):
        token = name[len("fault: ") :].split()
        if len(token) < 2:
            return None
        target = token[1]
        # A fault names a node by its id: show the node's name, as the rows do.
        for prefix, node in node_names.items():
            if prefix and target.startswith(prefix):
                target = node
        return f"{token[0]} {target}"
    if name.startswith("node died"):
        return f"{event.get('args', {}).get('node', 'node')} died"
    if name.startswith("remove "):
        return name
    return None


def from_trace(events: Iterable[dict]) -> Lanes:
    """Lanes from Chrome-trace events (a list of dicts, as `miniray.timeline()` returns)."""
    events = list(events)
    process: dict[int, str] = {}
    thread: dict[tuple[int, int], str] = {}
    bars: dict[tuple[int, int], list[Bar]] = {}
    marks: list[Mark] = []
    node_names: dict[str, str] = {}
    end = 0.0
    for event in events:
        ph = event.get("ph")
        pid, tid = event.get("pid", 0), event.get("tid", 0)
        if ph == "M" and event.get("name") == "process_name":
            process[pid] = event["args"]["name"]
        elif ph == "M" and event.get("name") == "thread_name":
            thread[(pid, tid)] = event["args"]["name"]
        elif ph == "X" and event.get("cat") in ("task", "actor_task", "actor_creation"):
            args = event.get("args", {})
            start = event["ts"] / US
            stop = start + event.get("dur", 0.0) / US
            end = max(end, stop)
            outcome = str(args.get("outcome", ""))
            bars.setdefault((pid, tid), []).append(
                Bar(
                    label=str(args.get("attempt") or event.get("name", "?")),
                    start=start,
                    end=stop,
                    kind=outcome_kind(outcome),
                    retry=bool(args.get("retry_of")),
                    reconstruction=bool(args.get("reconstruction")),
                    outcome=outcome,
                )
            )
        elif ph == "i":
            if event.get("name") == "node added":
                node_names[str(event["args"].get("id", ""))] = str(event["args"].get("node", ""))
            label = _mark_label(event, node_names)
            if label is not None:
                time = event["ts"] / US
                end = max(end, time)
                if not any(m.time == time and m.label == label for m in marks):
                    marks.append(Mark(time, label))
    rows = []
    for pid, tid in sorted(bars):
        name = thread.get((pid, tid), f"pid {tid}").replace(" pid=", " ")
        rows.append(
            Row(f"{process.get(pid, pid)} {name}", tuple(sorted(bars[(pid, tid)], key=lambda b: b.start)))
        )
    return Lanes(tuple(rows), tuple(sorted(marks, key=lambda m: m.time)), end)
