"""Metrics over virtual time: the dashboard's golden signals as (time, value) series.

The sampler reads the runtime's state (never a wall clock) at the end of every instant: the
kernel calls it just before the clock moves (a step, a driver's sleep, a body's fast-forwarded
sleep), so everything the driver and the callbacks did at that time is in. It adds no events to
the kernel, so turning it on cannot change a run. Like Prometheus, it sees only what
happens after it starts: call `miniray.sim.metrics()` right after `init()`.

Series (labels in brackets):
    object_store_used_bytes[node]   bytes in the node's shared memory
    object_store_fill_pct[node]     used / object_store_memory * 100
    spilled_bytes[node]             bytes currently on the node's disk
    spilled_bytes_total[node]       bytes ever spilled (Ray's spill counter; its rate is the spill rate)
    pending_tasks, running_tasks    tasks and actor calls in PENDING_* / RUNNING states
    actor_restarts                  restarts so far, all actors
    pg_scheduling_attempts          placement-group scheduling attempts so far
A series holds a point only where its value changed; within one instant the last value wins.
"""

from __future__ import annotations

from .. import context
from ..events import Kind
from ..runtime import Runtime
from ..states import TERMINAL, TaskState
from ..tasks import TaskSpec


class Metrics:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.data: dict[tuple, list] = {}
        self.live: dict[int, TaskSpec] = {}  # id(spec) -> spec not in a terminal state
        self.seen = 0  # how much of rt.tasks.all has been looked at
        self.by_id: dict[str, TaskSpec] = {}
        rt._kernel.observers.append(self.sample)  # the clock is about to move: how did this instant end?
        rt._log.listeners.append(self._on_record)
        self.sample()

    # -- sampling ------------------------------------------------------------------------------
    def _on_record(self, rec) -> None:
        if rec.kind == Kind.TASK_RECONSTRUCT:  # a finished task runs again: watch it once more
            spec = self.by_id.get(str(rec.fields.get("id")))
            if spec is not None:
                self.live[id(spec)] = spec

    def _put(self, key: tuple, t: float, value) -> None:
        pts = self.data.setdefault(key, [])
        if pts and pts[-1][0] == t:
            pts[-1] = (t, value)
            if len(pts) >= 2 and pts[-2][1] == value:
                pts.pop()
        elif not pts or pts[-1][1] != value:
            pts.append((t, value))

    def sample(self) -> None:
        rt, t = self.rt, self.rt.now()
        for node in rt.nodes:
            used = sum(node.store.values()) if node.alive else 0
            cap = node.object_store_memory or 1
            self._put(("object_store_used_bytes", node.name), t, used)
            self._put(("object_store_fill_pct", node.name), t, round(100.0 * used / cap, 6))
            self._put(("spilled_bytes", node.name), t, sum(node.spilled.values()))
            self._put(
                ("spilled_bytes_total", node.name), t, rt.objects.stores.spilled_bytes.get(node.name, 0)
            )
        specs = rt.tasks.all
        for spec in specs[self.seen :]:
            self.live[id(spec)] = spec
            self.by_id[spec.task_id[:12]] = spec
        self.seen = len(specs)
        pending = running = 0
        for key, spec in list(self.live.items()):
            state = spec.state
            if state in TERMINAL:
                del self.live[key]
            elif state == TaskState.RUNNING:
                running += 1
            else:
                pending += 1
        self._put(("pending_tasks", ""), t, pending)
        self._put(("running_tasks", ""), t, running)
        self._put(("actor_restarts", ""), t, sum(a.num_restarts for a in rt.actors.actors.values()))
        self._put(("pg_scheduling_attempts", ""), t, pg_attempts(rt.placement, t))

    # -- reading -------------------------------------------------------------------------------
    def series(self, name: str, node: str = "") -> list[tuple[float, float]]:
        """The (time, value) points of one series; `node` names the node for per-node series."""
        self.sample()
        key = (name, node)
        if key not in self.data:
            known = sorted({n for n, _ in self.data})
            nodes = sorted({lbl for n, lbl in self.data if n == name and lbl})
            hint = f" Pass node= one of {nodes}." if nodes else f" Known series: {known}."
            raise KeyError(f"no series {name!r}{' for node ' + repr(node) if node else ''}.{hint}")
        return list(self.data[key])

    def value(self, name: str, at: float, node: str = "") -> float:
        """The series' value at virtual time `at` (it holds its last value until the next point)."""
        out: float = 0  # an int until a point says otherwise: 0, not 0.0, when nothing happened
        for t, v in self.series(name, node):
            if t > at:
                break
            out = v
        return out

    def peak(self, name: str, node: str = "") -> float:
        return max(v for _, v in self.series(name, node))

    def rate(self, name: str, node: str = "", window: float = 10.0) -> float:
        """Per-second increase of a counter over the last `window` virtual seconds (PromQL's rate)."""
        now = self.rt.now()
        start = max(0.0, now - window)
        span = now - start
        return (self.value(name, now, node) - self.value(name, start, node)) / span if span > 0 else 0.0

    def golden(self, window: float = 10.0) -> dict:
        """The dashboard's front page (lesson 11): store fill % and spill rate per node, the
        pending-task backlog, and restarts per actor. Read these first; drill down only when one moves."""
        rt = self.rt
        return {
            "object_store_fill_pct": {
                n.name: self.value("object_store_fill_pct", rt.now(), n.name) for n in rt.nodes if n.alive
            },
            "spill_rate_bytes_per_s": {
                n.name: self.rate("spilled_bytes_total", n.name, window) for n in rt.nodes if n.alive
            },
            "pending_tasks": self.value("pending_tasks", rt.now()),
            "actor_restarts": {repr(a): a.num_restarts for a in rt.actors.actors.values() if a.num_restarts},
        }

    def names(self) -> list[tuple[str, str]]:
        self.sample()
        return sorted(self.data)

    def to_counters(self, trace, node_pid, gcs_pid: int) -> None:
        """Counter tracks in a timeline: store fill per node, task backlog on the cluster track."""
        self.sample()
        for (name, node), pts in sorted(self.data.items()):
            if name not in ("object_store_fill_pct", "spilled_bytes", "pending_tasks", "running_tasks"):
                continue
            pid = node_pid(node) if node else gcs_pid
            for t, v in pts:
                trace.counter(name, t, pid, {name: v})


def pg_attempts(manager, now: float) -> int:
    """Placement-group attempts so far, counting a hot loop's batched attempts without settling it.

    The manager keeps a hot loop as arithmetic (placement/manager.py, Segment) and turns it into
    state only when something happens; reading it here must not, so this repeats the count.
    """
    if manager is None:
        return 0
    seg = getattr(manager, "seg", None)
    total = manager.total_attempts
    if seg is None:
        return total
    cost, anchor, n0 = manager.cost, seg.anchor, seg.n0
    done = max(0, int((now - anchor) / cost) - n0 - 1)
    while anchor + (n0 + done + 1) * cost < now:
        done += 1
    while done > 0 and anchor + (n0 + done) * cost >= now:
        done -= 1
    return total + done + 1


def metrics(rt=None) -> Metrics:
    """The runtime's sampler, started on first call (it records from then on)."""
    rt = rt or context.current()
    if rt is None:
        raise RuntimeError(
            "miniray is not initialized: call miniray.init() first, then "
            "miniray.sim.metrics() to start sampling."
        )
    if rt.metrics is None:
        rt.metrics = Metrics(rt)
    return rt.metrics
