"""Lanes: a run's trace (`miniray.timeline()` or Ray's Chrome trace) as rows of attempt bars.

One row per worker thread that ran something, in the order the trace sorts them (node, then
pid). Each task attempt is a bar that says how it ended; faults, node deaths and worker deaths
are marks on the time axis. Only the trace is read, so the lanes can never change a run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

US = 1_000_000.0  # trace timestamps are microseconds

# How an attempt ended, from the slice's outcome: the bar's kind.
OK, FAILED, ERROR, OPEN = "ok", "failed", "error", "unfinished"


@dataclass(frozen=True)
class Bar:
    label: str  # "square#5/2": the call and its attempt
    start: float  # virtual seconds
    end: float
    kind: str  # ok | failed (the worker or node died) | error (the body raised) | unfinished
    retry: bool = False  # a second or later attempt of the same call
    reconstruction: bool = False  # re-run to rebuild a lost object (lineage)
    outcome: str = ""


@dataclass(frozen=True)
class Mark:
    time: float
    label: str  # "kill_node node:1", "node:1 died", ...


@dataclass(frozen=True)
class Row:
    name: str  # "node:1 worker 10002"
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class Lanes:
    rows: tuple[Row, ...]
    marks: tuple[Mark, ...] = field(default=())
    end: float = 0.0  # the last time anything happened

    def bars(self) -> list[Bar]:
        return [bar for row in self.rows for bar in row.bars]

    def attempts(self) -> int:
        return len(self.bars())

    def failed(self) -> list[Bar]:
        return [bar for bar in self.bars() if bar.kind != OK]


def _kind(outcome: str) -> str:
    if outcome in ("FINISHED", "ALIVE"):
        return OK
    if outcome.startswith("error"):
        return ERROR
    if outcome == "unfinished":
        return OPEN
    return FAILED


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
                    kind=_kind(outcome),
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
