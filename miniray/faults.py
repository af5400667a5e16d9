"""Faults as data: what to break, and when, so a schedule replays exactly.

A Fault strikes at a virtual time (`at`), right after a numbered kernel event (`after_event`),
or, for a crash, just before interaction `step` of a named attempt (`target` = "f#1/1": the first
call of `f`, first attempt). `step` equal to the attempt's interaction count means "after every
effect, before the result is returned". What else it holds are its kind's parameters, typed by
the kind's entry (miniray/fault_kinds.py), which is also what its token and `parse_token` follow.
A finished run lists its choice points: the boundaries it went through, where a fault could
have been injected (`ChoicePoints.points`, see miniray.sim.Run.points).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .events import Kind
from .fault_entry import WHEN, Boundary, FaultKind
from .fault_kinds import KINDS


def entry(kind: str) -> FaultKind:
    """A kind's entry in miniray/fault_kinds.py, or a readable error naming the kinds there are."""
    found = KINDS.get(kind)
    if found is None:
        raise ValueError(f"unknown fault kind {kind!r}; expected one of {', '.join(KINDS)}")
    return found


@dataclass(frozen=True, init=False)
class Fault:
    """One fault: its kind, its target, when it strikes (`at`, `after_event` or, for a crash,
    `step`) and its kind's parameters (`params`: every one, in its entry's order). A parameter
    reads as an attribute too (`fault.duration`); the entry says which a kind has, and their types."""

    kind: str
    target: str
    at: float | None
    after_event: int | None
    step: int | None
    params: tuple[tuple[str, Any], ...]

    def __init__(
        self,
        kind: str,
        target: str,
        at: float | None = None,
        after_event: int | None = None,
        step: int | None = None,
        params: Iterable[tuple[str, Any]] = (),
        **values: Any,
    ) -> None:
        spec = entry(kind)
        given = {**dict(params), **values}  # `params` as dataclasses.replace passes it back
        typed = spec.values(given)
        for name in spec.needs:
            if not _given(name, step if name == "step" else dict(typed)[name]):
                doc = "the interaction index in the attempt" if name == "step" else spec.param(name).doc
                raise ValueError(f"a {kind!r} fault needs {name}= ({doc})")
        for name, value in (("at", at), ("after_event", after_event), ("step", step)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "params", typed)

    def __getattr__(self, name: str) -> Any:
        # Only for names that are not fields: a parameter of the kind (`fault.duration`).
        if name.startswith("__") or name == "params":
            raise AttributeError(name)
        for key, value in self.params:
            if key == name:
                return value
        raise AttributeError(f"a {self.kind!r} fault has no {name!r}")

    @property
    def entry(self) -> FaultKind:
        return KINDS[self.kind]

    def token(self) -> str:
        """A compact text form, e.g. for a failing check to print so it can be replayed."""
        when = "".join(
            f" {name}={value!r}"
            for name, value in zip(WHEN, (self.at, self.after_event, self.step))
            if value is not None
        )
        return f"{self.kind} {self.target}{when}{self.entry.tail(self.params)}"

    def describe(self) -> str:
        """What it does once struck, in its entry's words ("node node:1 is lost, with ..."); its
        token when the entry has none."""
        return self.entry.describe(self.target, self.step, self.params) or self.token()


def _given(name: str, value: Any) -> bool:
    """Has a needed field a value? (A step may be 0; a size or a duration must be above 0.)"""
    if name == "step":
        return value is not None
    return bool(value) if isinstance(value, str) else value is not None and value > 0


def parse_token(token: str) -> Fault:
    """The Fault a token writes ("pause_node node:1 after_event=9 duration=15.0"), each value
    typed by its kind's entry; a readable ValueError for anything else."""
    kind, _, rest = token.strip().partition(" ")
    target, *items = rest.split()
    spec = entry(kind)
    kw: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        if not eq:
            raise ValueError(f"fault token {token!r}: {item!r} is not name=value")
        kw[name] = spec.parse(name, text)
    return Fault(kind, target, **kw)


def target_name(value: Any) -> str:
    """A node, an entry of ray.nodes(), a handle or a ref, as the string a fault targets."""
    if isinstance(value, dict):
        return str(value["NodeID"])
    for attr in ("node_id", "_actor_id"):
        if hasattr(value, attr):
            return str(getattr(value, attr))
    if hasattr(value, "hex") and callable(value.hex) and not isinstance(value, (int, float, str)):
        return str(value.hex())
    return str(value)


def from_helper(spec: FaultKind, args: tuple, kwargs: dict[str, Any], at: float | None = None) -> Fault:
    """The Fault a kind's `sim` helper call describes: `sim.pause_node(node, 5.0, at=2)`."""
    if len(args) > len(spec.helper):
        raise TypeError(f"sim.{spec.name}() takes {len(spec.helper)} positional arguments")
    values: dict[str, Any] = dict(zip(spec.helper, args))
    keywords = {p.helper_name: p.name for p in spec.params if p.helper_name}
    for key, value in kwargs.items():
        values[keywords.get(key, key)] = value
    if spec.fixed_target is not None:
        target = spec.fixed_target
    elif "target" in values:
        target = target_name(values.pop("target"))
    else:
        raise TypeError(f"sim.{spec.name}() needs its target")
    return Fault(spec.name, target, at=at if spec.timed else None, **values)


@dataclass
class ChoicePoints:
    """The boundaries one run went through, where a fault could have struck."""

    events: int = 0
    attempts: list = field(default_factory=list)  # (attempt key, interaction count), in order
    nodes: list = field(default_factory=list)  # names of the nodes a fault could kill
    actors: list = field(default_factory=list)  # the run's actors, as a fault names one ("Counter#1")
    # The kernel events worth striking after, each with the nodes worth striking on then (a
    # grader's pruning, from the log); None: every event, on every node.
    marks: list[tuple[int, tuple[str, ...]]] | None = None

    def points(self, boundary: Boundary) -> list[tuple[str, str, int]]:
        """Each choice point of a boundary, in order: (target, the Fault field that places it, its value)."""
        if boundary is Boundary.STEP:
            return [(key, "step", k) for key, n in self.attempts for k in range(n + 1)]
        everything = self.marks is None
        if boundary is Boundary.NODE_EVENT:
            marks = [(i, tuple(self.nodes)) for i in range(self.events)] if everything else self.marks or []
            return [(node, "after_event", i) for i, busy in marks for node in busy]
        if boundary is Boundary.ACTOR_EVENT:  # every actor the run made, after each marked event
            events = range(self.events) if everything else [i for i, _ in self.marks or []]
            return [(actor, "after_event", i) for i in events for actor in self.actors]
        raise ValueError(f"no choice points of {boundary!r}")

    def crashes(self) -> list[Fault]:
        return [Fault("crash", key, step=k) for key, _, k in self.points(Boundary.STEP)]

    def node_kills(self) -> list[Fault]:
        return [Fault("kill_node", node, after_event=i) for node, _, i in self.points(Boundary.NODE_EVENT)]


class FaultInjector:
    def __init__(self, rt, schedule: Iterable[Fault]):
        self.rt = rt
        self.crashes: dict[str, int] = {}
        self.at_steps: dict[str, Fault] = {}  # attempt -> another kind striking before its step
        self.by_event: dict[int, list[Fault]] = {}
        self.attempts: list[tuple[str, int]] = []
        for fault in schedule:
            self.add(fault)

    def add(self, fault: Fault) -> None:
        kind = KINDS[fault.kind]
        if kind.declare is not None:  # not an event: a standing declaration (use_memory)
            kind.declare(self, fault)
        elif fault.kind == "crash" and fault.at is None and fault.after_event is None:
            assert fault.step is not None  # Fault() requires it for a crash (its entry's needs=)
            self.crashes[fault.target] = fault.step
        elif fault.step is not None and fault.at is None and fault.after_event is None:
            self.at_steps[fault.target] = fault  # the attempt makes it strike (BodyRun.interact)
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

    def step_fault(self, key: str) -> Fault | None:
        """The fault (not a crash) that strikes before a step of this attempt, if any."""
        return self.at_steps.get(key)

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

    def running(self, attempt: str):
        """The worker whose body is `attempt` ("f#1/1") now, or None."""
        for node in self.rt.nodes:
            for worker in node.workers:
                if worker.body is not None and worker.body.key == attempt:
                    return worker
        return None

    def node_of(self, target: str):
        """A node by name or id, or the node running the attempt `target` (a fault that strikes
        before an attempt's step names the attempt)."""
        node = self.node(target)
        if node is None and (worker := self.running(target)) is not None:
            node = worker.node
        return node

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
        target, at = rng.choice(nodes), round(rng.uniform(0, horizon), 6)
        if "duration" in entry(kind).by_name:  # a pause: how long, drawn from the same seed
            faults.append(Fault(kind, target, at=at, duration=round(rng.uniform(1, 10), 6)))
        else:
            faults.append(Fault(kind, target, at=at))
    return sorted(faults, key=lambda f: f.at or 0.0)  # every fault here has a time
