"""What a learner's program may ask of miniray, in one table: Ray's API and the handles it returns.

In one process (a notebook, a script) this module changes nothing: the learner's code calls
miniray directly. The course's grader runs the learner's code in another process, a jail, and
answers its requests from these tables only (faultlines/sandbox): what is not here does not
cross, whatever its name. A later feature (a new call, a new record a learner is handed)
extends a table here, once.

- OPERATIONS: Ray's calls a learner writes (`ray.get`, `ray.util.placement_group`,
  `ray.actor.exit_actor`), each with the arguments it takes and what each may hold besides plain
  data (an ObjectRef, an actor handle, a placement group). Remote functions, actor classes and
  actor methods are called through their handles: any value as an argument, OPTIONS as options.
- CLOCK: the clock and process ids, which miniray stands in for inside a body (`time.sleep`,
  `time.time`, `os.getpid`, `os.kill`, `os._exit`): plain arguments only.
- RECORDS: miniray's objects a learner may be handed (a placement group and its record, a
  runtime context, a diagnosis, a fencing token, a node, an ObjectRef) and the fields it may read
  and the methods it may call on each (plain arguments only).
- SHIPPED: miniray's own classes and constant tuples a learner may hold and hand back
  (`from miniray.liveness import RETRYABLE`): classes, and tuples of classes, never a function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import actor, api, exceptions, liveness
from .cancel import cancel
from .cluster import Node
from .gcs_client import state
from .liveness import attribution, services
from .objects import ObjectRef
from .observe.timeline import timeline
from .placement.diagnosis import Diagnosis
from .placement.group import Bundle, Group
from .remote_function import ActorClass, ActorHandle, RemoteFunction
from .runtime_context import RuntimeContext, get_runtime_context
from .strategies import NodeAffinitySchedulingStrategy, PlacementGroupSchedulingStrategy
from .util.placement_group import (
    PlacementGroup,
    get_current_placement_group,
    get_placement_group,
    placement_group,
    placement_group_table,
    remove_placement_group,
)
from .util.state import memory


def memory_summary() -> str:
    """`ray.memory_summary()`, as the package's face spells it."""
    return memory().text


PLAIN_LEAVES: tuple[type, ...] = (type(None), bool, int, float, str, bytes, bytearray)
CONTAINERS: tuple[type, ...] = (list, tuple, dict, set, frozenset)


@dataclass(frozen=True)
class Accepts:
    """What one argument may hold: plain data (None, numbers, text, bytes, and lists, tuples,
    dicts and sets of them), and besides that instances of `types`, or anything at all."""

    what: str  # in words, for a refusal
    types: tuple[type, ...] = ()
    anything: bool = False

    def admits(self, value: Any) -> bool:
        if self.anything:
            return True
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, PLAIN_LEAVES):
                continue
            if type(v) in CONTAINERS:
                stack.extend(v.items() if type(v) is dict else v)
            elif not (self.types and isinstance(v, self.types)):
                return False
        return True


PLAIN = Accepts("plain data")
ANY = Accepts("any value", anything=True)
REFS = Accepts("an ObjectRef or a list of them", (ObjectRef,))
ACTOR = Accepts("an actor handle", (ActorHandle,))
GROUP = Accepts("a placement group", (PlacementGroup,))
# `.options(...)` of a remote function, actor class or method: exception classes (SHIPPED) for
# retry_exceptions, scheduling strategies, a placement group (Ray's legacy spelling).
OPTIONS = Accepts(
    "task options",
    (type, NodeAffinitySchedulingStrategy, PlacementGroupSchedulingStrategy, PlacementGroup),
)


@dataclass(frozen=True)
class Operation:
    """One call of Ray's API: the function, and every argument a learner may pass it."""

    fn: Callable[..., Any]
    params: dict[str, Accepts] = field(default_factory=dict)
    # A parameter naming a file the call writes (`timeline(filename=...)`): the caller's own
    # process writes it with what the call returns; it never reaches the function.
    writes: str = ""

    @property
    def name(self) -> str:
        return self.fn.__name__

    def positional(self) -> list[str]:
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return [p.name for p in inspect.signature(self.fn).parameters.values() if p.kind in kinds]

    def takes_any_keyword(self) -> bool:
        sig = inspect.signature(self.fn).parameters.values()
        return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig)

    def bind(self, args: list, kwargs: dict) -> dict:
        """The keyword arguments to call with, every argument checked against `params`; refused
        in Python's own words. A keyword the function takes and ignores (`init(**_ignored)`) is
        dropped, as miniray drops it."""
        names: list[str] = []
        for n in self.positional():  # up to the first the learner may not pass: none past it
            if n not in self.params:
                break
            names.append(n)
        if len(args) > len(names):
            s = "" if len(names) == 1 else "s"
            raise TypeError(
                f"{self.name}() takes {len(names)} positional argument{s} but {len(args)} were given"
            )
        for name, value in zip(names, args):
            self._admit(name, value)
        out = {}
        for key, value in kwargs.items():
            if key in self.params:
                self._admit(key, value)
                out[key] = value
            elif not self.takes_any_keyword() or key == self.writes:
                raise TypeError(f"{self.name}() got an unexpected keyword argument {key!r}")
        return out

    def _admit(self, name: str, value: Any) -> None:
        accepts = self.params[name]
        if not accepts.admits(value):
            raise TypeError(
                f"{self.name}() argument {name!r} takes {accepts.what}, not {type(value).__name__}"
            )


OPERATIONS: dict[str, Operation] = {
    "init": Operation(
        api.init,
        dict.fromkeys(
            (
                "address",
                "num_cpus",
                "num_gpus",
                "resources",
                "_system_config",
                "ignore_reinit_error",
                "labels",
                "object_store_memory",
                "memory",
            ),
            PLAIN,
        ),
    ),
    "shutdown": Operation(api.shutdown),
    "is_initialized": Operation(api.is_initialized),
    "get": Operation(api.get, {"object_refs": REFS, "timeout": PLAIN}),
    "put": Operation(api.put, {"value": ANY}),
    "wait": Operation(
        api.wait, {"object_refs": REFS, "num_returns": PLAIN, "timeout": PLAIN, "fetch_local": PLAIN}
    ),
    "kill": Operation(api.kill, {"actor": ACTOR, "no_restart": PLAIN}),
    "cancel": Operation(cancel, {"ray_object_ref": REFS, "force": PLAIN, "recursive": PLAIN}),
    "get_actor": Operation(api.get_actor, {"name": PLAIN, "namespace": PLAIN}),
    "nodes": Operation(api.nodes),
    "cluster_resources": Operation(api.cluster_resources),
    "available_resources": Operation(api.available_resources),
    "get_runtime_context": Operation(get_runtime_context),
    # A drain's notice: Ray 2.60 shows it only here (lesson 13), so a jailed task may ask it.
    "_private.state.state.get_draining_nodes": Operation(state.get_draining_nodes),
    "timeline": Operation(timeline, writes="filename"),
    "memory_summary": Operation(memory_summary),
    "actor.exit_actor": Operation(actor.exit_actor),
    "util.placement_group": Operation(
        placement_group,
        dict.fromkeys(
            ("bundles", "strategy", "name", "lifetime", "_soft_target_node_id", "bundle_label_selector"),
            PLAIN,
        ),
    ),
    "util.remove_placement_group": Operation(remove_placement_group, {"placement_group": GROUP}),
    "util.get_placement_group": Operation(get_placement_group, {"placement_group_name": PLAIN}),
    "util.get_current_placement_group": Operation(get_current_placement_group),
    "util.placement_group_table": Operation(placement_group_table, {"placement_group": GROUP}),
}


# The stand-ins miniray puts in for the clock and process ids inside a body (miniray/context.py),
# and how many plain arguments each takes at most.
CLOCK: dict[str, int] = {
    "time.sleep": 1,
    "time.time": 0,
    "time.monotonic": 0,
    "time.perf_counter": 0,
    "os.getpid": 0,
    "os.kill": 2,
    "os._exit": 1,
}


@dataclass(frozen=True)
class Surface:
    """What a learner may do with one of miniray's objects it is handed: read these fields, call
    these methods (with plain arguments); nothing else, never set anything."""

    fields: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()


RECORDS: dict[type, Surface] = {
    # A placement group's record as a queue policy or a rescheduler sees it (fault09, fault11).
    Group: Surface(
        (
            "pg_id",
            "name",
            "label",
            "bundles",
            "strategy",
            "state",
            "created_at",
            "scheduling_attempt",
            "scheduling_state",
            "highest_retry_delay_ms",
            "scheduling_latency_ms",
            "creation_latency_ms",
            "attempt_started",
            "failed_version",
            "recovering_since",
            "queued_at_attempts",
            "removed_from",
        ),
        ("placed", "unplaced", "row"),
    ),
    Bundle: Surface(("index", "resources", "selector", "node")),
    Node: Surface(
        ("index", "name", "node_id", "total", "available", "labels", "is_head", "alive", "address")
    ),
    Diagnosis: Surface(
        ("edges", "cycles", "starved", "spinning", "infeasible", "attempts"), ("cycle_strings", "lines")
    ),
    services.FencingToken: Surface(("lease", "value", "holder", "expires")),
    PlacementGroup: Surface(("id", "bundle_specs", "bundle_count"), ("ready", "wait")),
    RuntimeContext: Surface(
        methods=(
            "get_job_id",
            "get_node_id",
            "get_worker_id",
            "get_task_id",
            "get_actor_id",
            "get_actor_name",
            "get_assigned_resources",
        )
    ),
    ObjectRef: Surface(methods=("task_id",)),
}


def _classes_of(module: Any, base: type) -> dict[str, Any]:
    name = module.__name__
    return {
        f"{name}:{attr}": value
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and isinstance(value, type)
        and issubclass(value, base)
        and value.__module__ == name
    }


SHIPPED: dict[str, Any] = {
    **_classes_of(exceptions, BaseException),
    **_classes_of(services, Exception),
    "miniray.liveness:TransientError": liveness.TransientError,
    "miniray.liveness.attribution:TransientError": attribution.TransientError,
    "miniray.liveness:RETRYABLE": liveness.RETRYABLE,
    "miniray.liveness:TERMINAL": liveness.TERMINAL,
    "miniray.liveness.attribution:RETRYABLE": attribution.RETRYABLE,
    "miniray.liveness.attribution:TERMINAL": attribution.TERMINAL,
    "miniray.util.scheduling_strategies:NodeAffinitySchedulingStrategy": NodeAffinitySchedulingStrategy,
    "miniray.util.scheduling_strategies:PlacementGroupSchedulingStrategy": PlacementGroupSchedulingStrategy,
}
EXCEPTIONS: dict[str, type[BaseException]] = {
    name.partition(":")[2]: cls for name, cls in SHIPPED.items() if name.startswith("miniray.exceptions:")
}

__all__ = [
    "Accepts",
    "Operation",
    "Surface",
    "OPERATIONS",
    "CLOCK",
    "RECORDS",
    "SHIPPED",
    "EXCEPTIONS",
    "OPTIONS",
    "PLAIN",
    "ANY",
    "ObjectRef",
    "ActorHandle",
    "ActorClass",
    "RemoteFunction",
]
