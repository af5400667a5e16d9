"""The fault kinds, one entry each: what the fault holds, what it does, its `sim` helper, the
events it can cause, and the move name a grader's search uses for it.

Adding a kind is one `@kind(...)` entry here plus its handler (and its tests): `Fault` validates
from the entry, the injector applies it through the entry, `miniray.sim` offers its helper
(`sim.<helper>(...)`) from the entry, and a grader finds its move name here. See
docs/design/contributing.md.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .events import Kind

if TYPE_CHECKING:  # types only: faults.py imports this module
    from .faults import Fault, FaultInjector

Handler = Callable[["FaultInjector", "Fault"], None]

FIELDS = {  # what each optional Fault field means, for the error a missing one gets
    "step": "the interaction index in the attempt",
    "duration": "virtual seconds",
    "size": "bytes each attempt of the target holds",
}


def given(name: str, value: Any) -> bool:
    """Has a field a value? (A step may be 0; a size or a duration must be above 0.)"""
    return value is not None if name == "step" else bool(value) and value > 0


def _name(value: Any) -> str:
    """A node, an entry of ray.nodes(), a handle or a ref, as the string a fault targets."""
    if isinstance(value, dict):
        return str(value["NodeID"])
    for attr in ("node_id", "_actor_id"):
        if hasattr(value, attr):
            return str(getattr(value, attr))
    if hasattr(value, "hex") and callable(value.hex) and not isinstance(value, (int, float, str)):
        return str(value.hex())
    return str(value)


@dataclass(frozen=True)
class FaultKind:
    name: str  # the token's first word: "kill_node"
    apply: Handler  # what it does when it strikes
    doc: str
    events: tuple[Kind, ...] = ()  # the records it can cause (besides `fault`)
    needs: tuple[str, ...] = ()  # fields it must have (step for a crash, size for use_memory)
    params: tuple[str, ...] = ("target",)  # the sim helper's positional arguments, as Fault fields
    aliases: dict[str, str] = field(default_factory=dict)  # helper argument -> Fault field
    fixed_target: str | None = None  # a kind with one possible target (the head's GCS)
    timed: bool = True  # its helper takes at= (a virtual time)
    move: str | None = None  # the grader search's name for it, when a search may inject it
    declare: Handler | None = None  # not an event but a standing declaration (use_memory)

    def make(self, *args: Any, at: float | None = None, **kwargs: Any) -> Fault:
        """The Fault its `sim` helper describes."""
        # Imported here: faults.py imports this module for its table.
        from .faults import Fault

        values: dict[str, Any] = dict(zip(self.params, args))
        if len(args) > len(self.params):
            raise TypeError(f"sim.{self.name}() takes {len(self.params)} positional arguments")
        for key, value in kwargs.items():
            values[self.aliases.get(key, key)] = value
        target = self.fixed_target if self.fixed_target is not None else _name(values.pop("target"))
        return Fault(self.name, target, at=at if self.timed else None, **values)

    def helper(self) -> Callable[..., None]:
        """`sim.<name>(...)`: inject this fault into the running cluster, or the next one."""
        kind = self

        def inject(*args: Any, **kwargs: Any) -> None:
            # Imported here: sim stands a floor higher, and offers these helpers from this table.
            from .sim import inject as _inject

            _inject(kind.make(*args, **kwargs))

        params = [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in self.params]
        params += [inspect.Parameter(a, inspect.Parameter.KEYWORD_ONLY, default=0.0) for a in self.aliases]
        if self.timed:
            params.append(inspect.Parameter("at", inspect.Parameter.KEYWORD_ONLY, default=None))
        inject.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        inject.__name__ = inject.__qualname__ = self.name
        inject.__doc__ = self.doc
        return inject


KINDS: dict[str, FaultKind] = {}


def kind(name: str, doc: str, **entry: Any) -> Callable[[Handler], Handler]:
    """Register a fault kind: `@kind("kill_node", "...", events=..., move=...)` on its handler."""

    def register(handler: Handler) -> Handler:
        KINDS[name] = FaultKind(name, handler, doc, **entry)
        return handler

    return register


def moves() -> dict[str, str]:
    """A grader's search moves, by move name: the fault kind each one injects."""
    return {k.move: k.name for k in KINDS.values() if k.move is not None}


# -- the kinds --------------------------------------------------------------------------------------
@kind(
    "kill_node",
    "Kill a node (not the head): its workers die, its objects' copies are gone.",
    events=(Kind.NODE_DIED, Kind.WORKER_DIED),
    move="node_loss",
)
def _kill_node(inj: FaultInjector, fault: Fault) -> None:
    node = inj.node(fault.target)
    if node is not None and node.alive and not node.is_head:
        inj.rt.kill_node(node, cause="fault")


def _freeze(inj: FaultInjector, fault: Fault) -> None:
    rt = inj.rt
    node = inj.node(fault.target)
    if node is not None and node.alive:
        until = rt.now() + (fault.duration if fault.duration > 0 else float("inf"))
        node.frozen_until = max(node.frozen_until, until)
        # The state change itself, a record beside the fault's: no view reads it out of the token.
        if node.frozen_until == float("inf"):
            rt.emit(Kind.NODE_PAUSED, node=node.name)  # hung: no `until`
        else:
            rt.emit(Kind.NODE_PAUSED, node=node.name, until=node.frozen_until)
        if until != float("inf"):
            rt.call_at(until, lambda: rt.emit(Kind.NODE_RESUMED, node=node.name), label="resume-node")


kind(
    "pause_node",
    "Freeze a node for `duration` virtual seconds: it runs nothing, then goes on as if nothing happened.",
    events=(Kind.NODE_PAUSED, Kind.NODE_RESUMED),
    params=("target", "duration"),
    move="pause",
)(_freeze)
kind(
    "hang_node",
    "Freeze a node; duration 0 means for good.",
    events=(Kind.NODE_PAUSED, Kind.NODE_RESUMED),
    aliases={"duration": "duration"},
)(_freeze)


@kind(
    "kill_gcs",
    "The head node's GCS process dies (miniray/head).",
    events=(Kind.GCS_DIED,),
    params=(),
    fixed_target="head",
)
def _kill_gcs(inj: FaultInjector, fault: Fault) -> None:
    inj.rt.gcs.kill()


@kind(
    "kill_worker",
    "Kill a worker by pid, or the lowest-pid busy task worker of a node.",
    events=(Kind.WORKER_DIED,),
)
def _kill_worker(inj: FaultInjector, fault: Fault) -> None:
    worker = inj.worker(fault.target)
    if worker is not None:
        inj.rt.kill_worker(worker, cause="fault")


@kind(
    "kill_actor",
    "Kill an actor's process (a crash: restarts apply, unlike ray.kill(no_restart=True)).",
    events=(Kind.WORKER_DIED, Kind.ACTOR_STATE),
)
def _kill_actor(inj: FaultInjector, fault: Fault) -> None:
    actor = inj.actor(fault.target)
    if actor is not None and actor.worker is not None:
        inj.rt.kill_worker(actor.worker, cause="fault")


@kind(
    "crash",
    'Crash an attempt ("f#1/2") just before its interaction `step`; with at=, whatever it is doing then.',
    events=(Kind.WORKER_EXIT, Kind.WORKER_DIED),
    needs=("step",),
    params=("target", "step"),
    timed=False,
    move="crash",
)
def _crash(inj: FaultInjector, fault: Fault) -> None:  # a timed crash of the attempt, if it runs
    rt = inj.rt
    for node in rt.nodes:
        for worker in list(node.workers):
            if worker.body is not None and worker.body.key == fault.target:
                rt.kill_worker(worker, cause="fault")


@kind("lose_object", "Lose every copy of an object (its id, or a ref).")
def _lose_object(inj: FaultInjector, fault: Fault) -> None:
    objects = inj.rt.objects
    entry = objects.entries.get(fault.target) or next(
        (e for oid, e in objects.entries.items() if oid.startswith(fault.target)), None
    )
    if entry is not None:
        objects.stores.forget(entry)
        entry.inlined = False


def _declare_memory(inj: FaultInjector, fault: Fault) -> None:
    inj.rt.memory.declare(fault)


@kind(
    "use_memory",
    'Every attempt of `target` (a task name, "name#2" for one call, or an actor class) holds `size` '
    "bytes, reached over its first `ramp_s` seconds: what the memory monitor weighs. The script "
    "stays plain Ray: on real Ray the memory is whatever the code really allocates.",
    events=(Kind.MEMORY_KILL,),
    needs=("size",),
    params=("target", "size"),
    aliases={"ramp_s": "duration"},
    timed=False,
    declare=_declare_memory,
)
def _use_memory(inj: FaultInjector, fault: Fault) -> None:
    _declare_memory(inj, fault)
