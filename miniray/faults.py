"""Faults as data: what to break, and when, so a schedule replays exactly.

A Fault strikes at a virtual time (`at`), right after a numbered kernel event (`after_event`),
or, for a crash, just before interaction `step` of a named attempt (`target` = "f#1/1": the first
call of `f`, first attempt). `step` equal to the attempt's interaction count means "after every
effect, before the result is returned". A finished run lists its choice points: the faults that
could have been injected at each boundary it went through (see miniray.sim.Run.points).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from .events import Kind

KINDS = (
    "kill_node",
    "kill_worker",
    "kill_actor",
    "crash",
    "pause_node",
    "hang_node",
    "lose_object",
    "use_memory",
    "kill_gcs",
)


@dataclass(frozen=True)
class Fault:
    kind: str
    target: str
    at: float | None = None
    after_event: int | None = None
    step: int | None = None
    duration: float = 0.0
    size: float = 0.0  # use_memory: the bytes each attempt of `target` holds (miniray/memory)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if self.kind == "crash" and self.step is None:
            raise ValueError("a 'crash' fault needs step= (the interaction index in the attempt)")
        if self.kind == "use_memory" and self.size <= 0:
            raise ValueError("a 'use_memory' fault needs size= (bytes each attempt of the target holds)")

    def token(self) -> str:
        """A compact text form, e.g. for a failing check to print so it can be replayed."""
        parts = [self.kind, self.target]
        if self.at is not None:
            parts.append(f"at={self.at!r}")
        if self.after_event is not None:
            parts.append(f"after_event={self.after_event}")
        if self.step is not None:
            parts.append(f"step={self.step}")
        if self.duration:
            parts.append(f"duration={self.duration!r}")
        if self.size:
            parts.append(f"size={self.size!r}")
        return " ".join(parts)


def parse_token(token: str) -> Fault:
    kind, target, *rest = token.split()
    kw: dict = {}
    for item in rest:
        k, v = item.split("=", 1)
        kw[k] = int(v) if k in ("after_event", "step") else float(v)
    return Fault(kind, target, **kw)


@dataclass
class ChoicePoints:
    """The boundaries one run went through, where a fault could have struck."""

    events: int = 0
    attempts: list = field(default_factory=list)  # (attempt key, interaction count), in order
    nodes: list = field(default_factory=list)  # names of the nodes a fault could kill

    def crashes(self) -> list[Fault]:
        return [Fault("crash", key, step=k) for key, n in self.attempts for k in range(n + 1)]

    def node_kills(self) -> list[Fault]:
        return [Fault("kill_node", node, after_event=i) for i in range(self.events) for node in self.nodes]


class FaultInjector:
    def __init__(self, rt, schedule: Iterable[Fault]):
        self.rt = rt
        self.crashes: dict[str, int] = {}
        self.by_event: dict[int, list[Fault]] = {}
        self.attempts: list[tuple[str, int]] = []
        for fault in schedule:
            self.add(fault)
        rt.kernel.before_step = self._before_step

    def add(self, fault: Fault) -> None:
        if fault.kind == "use_memory":  # not an event: what the target's attempts hold while they run
            self.rt.memory.declare(fault)
        elif fault.kind == "crash" and fault.at is None and fault.after_event is None:
            assert fault.step is not None  # Fault.__post_init__ requires it for a crash
            self.crashes[fault.target] = fault.step
        elif fault.after_event is not None:
            self.by_event.setdefault(fault.after_event, []).append(fault)
        elif fault.at is not None:
            self.rt.call_at(fault.at, self.apply, fault, label="fault")
        else:
            self.apply(fault)

    def crash_step(self, key: str) -> int | None:
        return self.crashes.get(key)

    def record_attempt(self, key: str, steps: int) -> None:
        self.attempts.append((key, steps))

    def _before_step(self, timer) -> None:
        due = self.by_event.pop(self.rt.kernel.steps - 1, None)
        if due:
            for fault in due:
                self.apply(fault)

    # -- applying -------------------------------------------------------------------------------
    def apply(self, fault: Fault) -> None:
        rt = self.rt
        rt.emit(Kind.FAULT, fault=fault.token())
        if fault.kind == "kill_node":
            node = self._node(fault.target)
            if node is not None and node.alive and not node.is_head:
                rt.kill_node(node, cause="fault")
        elif fault.kind in ("pause_node", "hang_node"):
            node = self._node(fault.target)
            if node is not None and node.alive:
                until = rt.now() + (fault.duration if fault.duration > 0 else float("inf"))
                node.frozen_until = max(node.frozen_until, until)
                if until != float("inf"):
                    rt.call_at(until, lambda: rt.emit(Kind.NODE_RESUMED, node=node.name), label="resume-node")
        elif fault.kind == "kill_gcs":  # the head node's GCS process dies (miniray/head)
            rt.gcs.kill()
        elif fault.kind == "kill_worker":
            worker = self._worker(fault.target)
            if worker is not None:
                rt.kill_worker(worker, cause="fault")
        elif fault.kind == "kill_actor":
            actor = self._actor(fault.target)
            if actor is not None and actor.worker is not None:
                rt.kill_worker(actor.worker, cause="fault")
        elif fault.kind == "crash":  # a timed crash of whatever attempt `target` names, if running
            for node in rt.nodes:
                for worker in list(node.workers):
                    if worker.body is not None and worker.body.key == fault.target:
                        rt.kill_worker(worker, cause="fault")
        elif fault.kind == "lose_object":
            entry = rt.objects.entries.get(fault.target) or next(
                (e for oid, e in rt.objects.entries.items() if oid.startswith(fault.target)), None
            )
            if entry is not None:
                for node in entry.locations:
                    node.store.pop(entry.object_id, None)
                    node.spilled.pop(entry.object_id, None)
                entry.locations = []
                entry.inlined = False

    def _node(self, target: str):
        return self.rt.node_by_id(target)

    def _worker(self, target: str):
        for node in self.rt.nodes:
            for worker in node.workers:
                if str(worker.pid) == target or worker.worker_id == target:
                    return worker
            if target in (node.name, node.node_id):  # any running task worker on that node, lowest pid first
                busy = [w for w in node.workers if w.body is not None and w.kind == "task"]
                if busy:
                    return min(busy, key=lambda w: w.pid)
        return None

    def _actor(self, target: str):
        actors = self.rt.actors
        if target in actors.named:
            return actors.named[target]
        for actor in actors.actors.values():
            if actor.actor_id == target or f"{actor.class_name}#{actor.ordinal}" == target:
                return actor
        return None


def random_schedule(
    seed: int, nodes: list[str], horizon: float, count: int = 1, kinds: tuple = ("kill_node",)
) -> list[Fault]:
    """`count` faults at uniformly random virtual times in [0, horizon), drawn from `seed` alone."""
    rng = random.Random(seed)
    faults = []
    for _ in range(count):
        kind = rng.choice(kinds)
        faults.append(
            Fault(
                kind,
                rng.choice(nodes),
                at=round(rng.uniform(0, horizon), 6),
                duration=round(rng.uniform(1, 10), 6) if kind in ("pause_node", "hang_node") else 0.0,
            )
        )
    return sorted(faults, key=lambda f: f.at or 0.0)  # every fault here has a time
