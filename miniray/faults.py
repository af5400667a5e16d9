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
from .fault_kinds import FIELDS, KINDS, given


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
        kind = KINDS.get(self.kind)
        if kind is None:
            raise ValueError(f"unknown fault kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        for name in kind.needs:
            if not given(name, getattr(self, name)):
                raise ValueError(f"a {self.kind!r} fault needs {name}= ({FIELDS[name]})")

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

    def add(self, fault: Fault) -> None:
        kind = KINDS[fault.kind]
        if kind.declare is not None:  # not an event: a standing declaration (use_memory)
            kind.declare(self, fault)
        elif fault.kind == "crash" and fault.at is None and fault.after_event is None:
            assert fault.step is not None  # Fault.__post_init__ requires it for a crash
            self.crashes[fault.target] = fault.step
        elif fault.after_event is not None:
            self.by_event.setdefault(fault.after_event, []).append(fault)
            # Watch kernel steps only while a fault waits for one: no cost on a step otherwise.
            self.rt._kernel.before_step = self._before_step
        elif fault.at is not None:
            self.rt.call_at(fault.at, self.apply, fault, label="fault")
        else:
            self.apply(fault)

    def crash_step(self, key: str) -> int | None:
        return self.crashes.get(key)

    def record_attempt(self, key: str, steps: int) -> None:
        self.attempts.append((key, steps))

    def _before_step(self, timer) -> None:
        due = self.by_event.pop(self.rt._kernel.steps - 1, None)
        if not self.by_event:
            self.rt._kernel.before_step = None
        if due:
            for fault in due:
                self.apply(fault)

    # -- applying -------------------------------------------------------------------------------
    def apply(self, fault: Fault) -> None:
        self.rt.emit(Kind.FAULT, fault=fault.token())
        KINDS[fault.kind].apply(self, fault)

    def node(self, target: str):
        return self.rt.node_by_id(target)

    def worker(self, target: str):
        for node in self.rt.nodes:
            for worker in node.workers:
                if str(worker.pid) == target or worker.worker_id == target:
                    return worker
            if target in (node.name, node.node_id):  # any running task worker on that node, lowest pid first
                busy = [w for w in node.workers if w.body is not None and w.kind == "task"]
                if busy:
                    return min(busy, key=lambda w: w.pid)
        return None

    def actor(self, target: str):
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
