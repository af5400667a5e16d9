"""Each node's memory monitor on the virtual clock: sample, compare with the threshold, kill.

The monitor samples every node every `memory_monitor_refresh_ms` of virtual time, on a fixed grid
(0.25 s, 0.5 s, ...), but only while what runs on some node could take it past its threshold once
every declared ramp completes (re-checked whenever an attempt starts): a cluster with no
`use_memory` fault gets no extra events, and its log is what it was before the monitor existed. A node's use is the memory its running workers hold plus the bytes in its object store
(Ray counts both); its capacity is its `memory` resource. Above `memory_usage_threshold` of the
capacity the monitor kills one worker per node per sample, as Ray's kills one at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import exceptions as exc
from ..events import Kind
from ..states import TaskState
from . import policy

if TYPE_CHECKING:
    from ..cluster import Node, Worker
    from ..faults import Fault
    from ..kernel import Timer
    from ..log import Record
    from ..runtime import Runtime
    from ..tasks import TaskSpec


@dataclass(frozen=True)
class Usage:
    """What the attempts of one task (or one actor's process) hold: `size` bytes, reached
    linearly over the first `ramp_s` seconds of the attempt (0: from its first instant)."""

    target: str  # a task's name ("load"), one call ("load#2"), one attempt ("load#2/1"), an actor class
    size: float
    ramp_s: float = 0.0

    def at(self, age_s: float) -> float:
        if self.ramp_s <= 0:
            return self.size
        return self.size * min(1.0, max(0.0, age_s) / self.ramp_s)


class MemoryMonitor:
    def __init__(self, rt: Runtime):
        self.rt = rt
        cfg = rt.system_config
        self.refresh_s = float(cfg.get("memory_monitor_refresh_ms", 250)) / 1000.0
        self.threshold = float(cfg.get("memory_usage_threshold", 0.95))
        self.by_group = bool(cfg.get("worker_killing_policy_by_group", False))
        self.oom_retries = int(cfg.get("task_oom_retries", -1))
        self.retry_base_ms = float(cfg.get("task_oom_retry_delay_base_ms", 1000))
        self.declared: list[Usage] = []
        self.kills = 0
        # pid -> (virtual time, log index) the worker's current lease began: what "newest" means.
        self._task_started: dict[int, tuple[float, int]] = {}
        self._actor_started: dict[int, tuple[float, int]] = {}
        self._oom_left: dict[str, int] = {}  # task id -> OOM retries left (-1: no limit)
        self._killing: tuple[str, bool] | None = None  # (message, may retry) of the kill under way
        self._timer: Timer | None = None

    # -- declaring use -------------------------------------------------------------------------
    def declare(self, fault: Fault) -> None:
        if not self.declared:
            self.rt._log.listeners.append(self._on_record)
            self._catch_up()
        self.declared.append(Usage(fault.target, float(fault.size), float(fault.duration)))
        self._arm()

    def _catch_up(self) -> None:
        """Start times of what already runs when the first use is declared (a fault at init has none)."""
        for rec in self.rt._log.of_kind(Kind.TASK_START, Kind.ACTOR_START):
            self._on_record(rec)

    def _on_record(self, rec: Record) -> None:
        if rec.kind == Kind.TASK_START:
            self._task_started[rec["worker"]] = (rec.time, rec.index)
            self._arm()
        elif rec.kind == Kind.ACTOR_START:
            self._actor_started[rec["worker"]] = (rec.time, rec.index)
            self._arm()

    # -- reading use ---------------------------------------------------------------------------
    def _names(self, worker: Worker) -> tuple[tuple[str, ...], tuple[float, int] | None]:
        """The targets that name what `worker` runs now, and when its lease began."""
        if not worker.alive or worker.kind == "driver":
            return (), None
        if worker.actor is not None:
            actor = worker.actor
            return (actor.class_name, f"{actor.class_name}#{actor.ordinal}"), self._actor_started.get(
                worker.pid
            )
        spec = worker.task  # set from the lease to the end of the attempt
        if spec is None:
            return (), None
        return (spec.name, f"{spec.name}#{spec.ordinal}", spec.key), self._task_started.get(worker.pid)

    def worker_bytes(self, worker: Worker) -> float:
        names, started = self._names(worker)
        if not names or started is None:
            return 0.0
        age = self.rt.now() - started[0]
        return sum(u.at(age) for u in self.declared if u.target in names)

    def node_bytes(self, node: Node) -> float:
        """What the monitor sees on `node`: its workers' memory plus its object store's bytes."""
        return sum(self.worker_bytes(w) for w in node.workers) + float(sum(node.store.values()))

    # -- the periodic check --------------------------------------------------------------------
    def _peak_bytes(self, worker: Worker) -> float:
        """What `worker` holds once every declared ramp is complete."""
        names, started = self._names(worker)
        if started is None:
            return 0.0
        return sum(u.size for u in self.declared if u.target in names)

    def _could_exceed(self, node: Node) -> bool:
        capacity = float(node.total.get("memory", 0.0))
        if not node.alive or capacity <= 0:
            return False
        peak = sum(self._peak_bytes(w) for w in node.workers)
        return peak > 0 and peak + float(sum(node.store.values())) > self.threshold * capacity

    def _busy(self) -> bool:
        """Could any node pass its threshold with what runs there now? If none can, sampling
        would find nothing, so the monitor sleeps until the next attempt starts."""
        return any(self._could_exceed(n) for n in self.rt.nodes)

    def _arm(self) -> None:
        if self._timer is not None or self.refresh_s <= 0 or not self.declared or not self._busy():
            return
        now, step = self.rt.now(), self.refresh_s
        tick = (math.floor(now / step + 1e-9) + 1) * step
        self._timer = self.rt.call_at(round(tick, 9), self._tick, label="memory-monitor")

    def _tick(self) -> None:
        self._timer = None
        now = self.rt.now()
        for node in list(self.rt.nodes):
            if not node.alive or node.frozen_until > now:  # a frozen raylet checks nothing
                continue
            capacity = float(node.total.get("memory", 0.0))
            used = self.node_bytes(node)
            if capacity > 0 and used > self.threshold * capacity:
                self._kill(node, used, capacity)
        self._arm()

    def _kill(self, node: Node, used: float, capacity: float) -> None:
        """One pass: Ray 2.60's policy picks as many workers as bring the node back under its
        threshold with a buffer and kills them together; the older, by-group policy one at a time."""
        candidates = []
        for worker in node.workers:
            names, started = self._names(worker)
            if names and started is not None:
                owner = worker.task.owner.worker_id if worker.task is not None else worker.worker_id
                candidates.append(
                    policy.Candidate(
                        worker, policy.retriable(worker), started, owner, self.worker_bytes(worker)
                    )
                )
        if not candidates:
            return  # only the object store is full: Ray would have nothing of the workload's to kill
        if self.by_group:
            victim, may_retry = policy.choose(candidates, self.by_group)
            victims = [victim]
        else:
            victims, may_retry = policy.choose_set(candidates, used, capacity, self.threshold), True
        message = policy.kill_message(node, used, capacity, self.threshold, victims)
        for victim in victims:
            names, _ = self._names(victim.worker)
            self.kills += 1
            self.rt.emit(
                Kind.MEMORY_KILL,
                node=node.name,
                worker=victim.worker.pid,
                victim=names[-1],
                used_gb=round(used / policy.GB, 3),
                capacity_gb=round(capacity / policy.GB, 3),
            )
        self._killing = (message, may_retry)
        try:
            for victim in victims:
                self.rt.kill_worker(victim.worker, cause="oom")
        finally:
            self._killing = None

    # -- after the kill ------------------------------------------------------------------------
    def task_killed(self, spec: TaskSpec) -> None:
        """Called by the task manager for the task whose worker the monitor just killed."""
        message, allowed = self._killing or (
            "1 worker(s) were killed due to the node running low on memory.",
            True,
        )
        left = self._oom_left.get(spec.task_id, self.oom_retries)
        again = allowed and not spec.cancelled and spec.max_retries != 0 and left != 0
        if again and left > 0:
            self._oom_left[spec.task_id] = left - 1
        self.rt.emit(Kind.TASK_FAIL, task=spec.name, attempt=spec.key, cause="oom", retry=again)
        if not again:
            self.rt.tasks.fail_returns(spec, exc.OutOfMemoryError(message))
            return
        spec.state = TaskState.PENDING_ARGS_AVAIL
        delay = policy.oom_retry_delay_s(spec.attempts - 1, self.retry_base_ms)
        self.rt.call_later(delay, self.rt.tasks.resolve, spec, label="oom-retry")
