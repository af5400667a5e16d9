"""The lanes, built once, in both shapes lanes.py holds.

The event axis follows the table: a row's `draws` says which state a node, an actor or a group
enters, when an attempt's bar opens and how it ended (at Ray's verdict on it), where a read
copied an object, and where a mark goes. The time axis draws what each worker process was doing,
as Ray's timeline (and `miniray.timeline()`, its Chrome trace) shows it: an attempt's bar ends
when its process stops running it (a crash's worker.exit, its worker's death), a zombie's when it
really ends, an unfinished one at the run's end; times are rounded to the nanosecond as the
trace rounds them, so a lesson's text is the same drawn from either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from miniray.sim import Kind

from . import table
from .lanes import AttemptSpan, Bar, Lanes, Mark, Row, Spans, outcome_kind
from .table import COPY, MARK, OPEN, OPENS, Lane

US = 1_000_000.0
BAND_LANES = {Lane.NODES: "nodes", Lane.ACTORS: "actors", Lane.GROUPS: "groups"}


def _trace_time(seconds: float) -> float:
    """Virtual seconds as the trace keeps them: whole nanoseconds (miniray/observe/trace.py)."""
    return round(seconds * US, 3) / US


def lane_row(lane: Lane, fields: Mapping[str, Any]) -> str:
    """The label of the event-axis row a record of `lane` is drawn on."""
    key = str(fields.get(lane.key, ""))
    return {Lane.WORKERS: f"worker {key}", Lane.GROUPS: f"group {key}"}.get(lane, key)


class EventAxis:
    """The event axis, fed event by event as the run is folded (fold.py)."""

    def __init__(self) -> None:
        self.spans = Spans()
        self.worker_node: dict[str, str] = {}
        self.running: dict[str, tuple[str, int]] = {}  # attempt -> (worker pid, start event)
        self.held: dict[str, str] = {}  # object -> the first node a copy went to

    def see(self, index: int, row: table.Row, f: Mapping[str, Any], text: str) -> None:
        drawn = row.drawn(f)
        if drawn is None:
            return
        s = self.spans
        if "worker" in f and (drawn == OPENS or row.lane is Lane.ACTORS):
            pid, node = str(f["worker"]), str(f["node"])
            if pid not in self.worker_node:
                self.worker_node[pid] = node
                s.workers.setdefault(node, []).append(pid)
        if drawn == OPENS:
            self.running[str(f["attempt"])] = (str(f["worker"]), index)
        elif drawn == COPY:
            oid, node = str(f["object"]), str(f["node"])
            s.copies.append((index, oid, self.held.get(oid, ""), node))
            self.held.setdefault(oid, node)
        elif drawn == MARK:
            s.marks.append((index, lane_row(row.lane, f), text))
        elif row.lane is Lane.TASKS:
            self.end(str(f["attempt"]), index, drawn)
        elif row.lane in BAND_LANES:
            states = getattr(s, BAND_LANES[row.lane])
            states.setdefault(str(f[row.lane.key]), []).append((index, drawn))

    def end(self, attempt: str, index: int, kind: str) -> None:
        started = self.running.pop(attempt, None)
        if started is not None:
            pid, start = started
            self.spans.attempts.append(AttemptSpan(attempt, pid, start, index + 1, kind))

    def close(self, events: int) -> Spans:
        for attempt in list(self.running):
            self.end(attempt, events - 1, OPEN)
        self.spans.events = events
        return self.spans


@dataclass
class _Slice:
    label: str
    start: float
    thread: tuple[int, int]  # (the node's trace pid, the worker's pid)
    retry: bool = False
    reconstruction: bool = False


def node_pid(node: str) -> int:
    """The trace's process of a node: "node:3" -> 5 (pid 1 is the cluster's GCS)."""
    return int(node.split(":")[1]) + 2 if node.startswith("node:") else 1


class _TimeAxis:
    """Each worker process's slices, as miniray/observe/timeline.py draws them."""

    def __init__(self) -> None:
        self.open: dict[str, _Slice] = {}
        self.names: dict[tuple[int, int], str] = {}  # thread -> its row's name
        self.bars: dict[tuple[int, int], list[Bar]] = {}
        self.marks: list[Mark] = []
        self.node_names: dict[str, str] = {}  # node id -> name (a fault names its node by id)
        self.ordinals: dict[str, str] = {}  # task id -> "f#1"
        self.retried: set[str] = set()  # calls whose last attempt ended with a retry to come
        self.rebuilding: set[str] = set()  # calls whose next attempt rebuilds a lost object
        self.zombies: set[str] = set()
        self.end = 0.0

    def thread(self, f: Mapping[str, Any], label: str = "worker") -> tuple[int, int]:
        node, pid = str(f["node"]), int(f["worker"])
        key = (node_pid(node), pid)
        place = node if key[0] != 1 else "cluster (GCS)"
        self.names.setdefault(key, f"{place} {label} {pid}")
        return key

    def mark(self, t: float, label: str) -> None:
        time = _trace_time(t)
        self.end = max(self.end, time)
        if not any(m.time == time and m.label == label for m in self.marks):
            self.marks.append(Mark(time, label))

    def stop(self, key: str, t: float, outcome: str) -> None:
        s = self.open.pop(key, None)
        if s is None:
            return
        start = _trace_time(s.start)
        end = start + _trace_time(max(0.0, t - s.start))
        self.end = max(self.end, end)
        bar = Bar(s.label, start, end, outcome_kind(outcome), s.retry, s.reconstruction, outcome)
        self.bars.setdefault(s.thread, []).append(bar)

    def ended(self, f: Mapping[str, Any], t: float, outcome: str) -> None:
        key = str(f["attempt"])
        if f.get("retry"):
            self.retried.add(key.rsplit("/", 1)[0])
        if key not in self.zombies:  # presumed dead, still running: it ends when it does
            self.stop(key, t, outcome)

    def see(self, kind: str, t: float, f: Mapping[str, Any]) -> None:
        handler = _TIME_AXIS.get(kind)
        if handler is not None:
            handler(self, t, f)

    def close(self, t: float) -> Lanes:
        for key in list(self.open):
            self.zombies.discard(key)
            self.stop(key, t, "unfinished")
        rows = tuple(
            Row(self.names[thread], tuple(sorted(self.bars[thread], key=lambda b: b.start)))
            for thread in sorted(self.bars)
        )
        return Lanes(rows, tuple(sorted(self.marks, key=lambda m: m.time)), self.end)


def _fault_mark(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    token = str(f.get("fault", "")).split()
    if len(token) >= 2:
        target = token[1]
        for prefix, node in a.node_names.items():  # a fault names a node by its id: show its name
            if prefix and target.startswith(prefix):
                target = node
        a.mark(t, f"{token[0]} {target}")


def _start(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    key = str(f["attempt"])
    call = key.rsplit("/", 1)[0]
    retry = call in a.retried
    a.retried.discard(call)
    rebuild = call in a.rebuilding
    a.rebuilding.discard(call)
    a.open[key] = _Slice(key, t, a.thread(f), retry, rebuild)


def _rebuild(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    call = a.ordinals.get(str(f["id"]))
    if call is not None:
        a.rebuilding.add(call)


def _worker_exit(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    a.thread(f)  # names the worker's row, if this is the first the run says of it
    a.stop(str(f["attempt"]), t, f"worker exit: {f.get('reason')}")


def _worker_died(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    thread = a.thread(f)
    for key in [k for k, s in a.open.items() if s.thread == thread and k not in a.zombies]:
        a.stop(key, t, f"worker died: {f['cause']}")


def _actor_start(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    actor = str(f["actor"])
    a.open[f"{actor}/init"] = _Slice(actor.split("(")[0] + ".__init__", t, a.thread(f, f"actor {actor}"))


def _actor_state(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    if f["state"] in ("ALIVE", "DEAD"):
        a.stop(f"{f['actor']}/init", t, str(f["state"]))


def _zombie_ends(a: _TimeAxis, t: float, f: Mapping[str, Any]) -> None:
    a.zombies.discard(str(f["attempt"]))
    a.stop(str(f["attempt"]), t, f"zombie {f.get('outcome')}")


# What the time axis draws, by kind: Ray's timeline has more to say about a process's work than
# the table's one `draws` column (which slice a worker's death ends, a retry's predecessor).
_TIME_AXIS: dict[str, Callable[[_TimeAxis, float, Mapping[str, Any]], None]] = {
    Kind.NODE_ADD: lambda a, t, f: a.node_names.__setitem__(str(f.get("id", "")), str(f.get("node", ""))),
    Kind.NODE_DIED: lambda a, t, f: a.mark(t, f"{f['node']} died"),
    Kind.FAULT: _fault_mark,
    Kind.CLUSTER_REMOVE_NODE: lambda a, t, f: a.mark(t, f"remove {f['node']}"),
    Kind.TASK_SUBMIT: lambda a, t, f: a.ordinals.__setitem__(str(f["id"]), f"{f['task']}#{f['ordinal']}"),
    Kind.TASK_START: _start,
    Kind.TASK_FINISH: lambda a, t, f: a.stop(str(f["attempt"]), t, "FINISHED"),
    Kind.TASK_ERROR: lambda a, t, f: a.ended(f, t, f"error: {f['error']}"),
    Kind.TASK_FAIL: lambda a, t, f: a.ended(f, t, f"failed: {f['cause']}"),
    Kind.TASK_RECONSTRUCT: _rebuild,
    Kind.WORKER_EXIT: _worker_exit,
    Kind.WORKER_DIED: _worker_died,
    Kind.ACTOR_START: _actor_start,
    Kind.ACTOR_STATE: _actor_state,
    Kind.LIVENESS_ZOMBIE: lambda a, t, f: a.zombies.add(str(f["attempt"])),
    Kind.LIVENESS_ZOMBIE_FINISHED: _zombie_ends,
}


def time_lanes(records: Iterable[Any], end: float | None = None) -> Lanes:
    """The time axis of `records`; `end`: the run's virtual time when it ended (an unfinished
    attempt's bar reaches it), if later than the last record."""
    axis = _TimeAxis()
    last = 0.0
    for record in records:
        axis.see(record.kind, record.time, record.fields)
        last = record.time
    return axis.close(max(last, end if end is not None else last))
