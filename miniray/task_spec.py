"""A task's record (TaskSpec): what it runs, with what, where its attempt is, and its lineage.

Shared by normal tasks, actor calls and actor creations (miniray/tasks.py, actors.py). A
TaskSpec is the lineage of its return objects: the owner keeps it while a ref to any return is
alive, and re-runs it when every copy of a return is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import generators, retry
from .cluster import Node, Worker
from .copying import SCALARS, Frozen, freeze
from .isolation import Export
from .objects import ObjectRef
from .states import TaskState

if TYPE_CHECKING:  # types only: the runtime and the actors import this module
    from .actors import Actor
    from .runtime import Runtime


class TaskSpec:
    def __init__(
        self,
        rt: Runtime,
        name: str,
        fn: Any,
        args: tuple,
        kwargs: dict,
        opts: dict,
        owner: Worker,
        kind: str = "task",
        actor: Actor | None = None,
    ):
        self.rt = rt
        self.task_id = rt.ids.new("task")
        self.name = name
        self.fn = fn
        # Serialized now, as Ray does at .remote(): a later change by the caller is not seen.
        self.args = freeze_args(args)
        self.kwargs = dict(zip(kwargs, freeze_args(tuple(kwargs.values())))) if kwargs else kwargs
        self.opts = opts
        self.owner = owner
        self.kind = kind  # "task" | "actor_task" | "actor_creation"
        self.actor = actor
        self.ordinal = rt.next_ordinal(name)
        self.attempts = 0
        retries = retry.budget(opts, actor_call=kind == "actor_task")
        self.max_retries = retries
        self.retries_left = retries
        self.state = TaskState.PENDING_ARGS_AVAIL
        self.node: Node | None = None
        self.worker: Worker | None = None
        self.returns: list[str] = []
        self.resources = demand(opts)
        # Its demand before a placement group renamed it to the bundle's resources (placement/manager).
        self.pg_demand: dict[str, float] | None = None
        self.arg_values: tuple | None = None
        self.kwarg_values: dict | None = None
        self.seq = 0
        self.pid: int | None = None
        self.args_ready = True
        self.cancelled = False  # set by ray.cancel (miniray/cancel.py): never run again
        # STREAMING, DYNAMIC or "list" for a generator task (miniray/generators.py); None otherwise.
        self.generator: str | None = opts.get("_generator")
        self.stream: generators.Stream | None = None  # a streaming generator's yielded items
        # The learner state its worker process has its own copy of (miniray/isolation), if any.
        self.export: Export | None = actor.export if actor is not None else None

    @property
    def key(self) -> str:
        return f"{self.name}#{self.ordinal}/{self.attempts}"

    def deps(self) -> list[ObjectRef]:
        return [a for a in list(self.args) + list(self.kwargs.values()) if isinstance(a, ObjectRef)]

    def the_actor(self) -> Actor:
        """The actor of an actor call or creation (the caller knows the spec is one)."""
        assert self.actor is not None, f"{self.name} is not an actor task"
        return self.actor


def freeze_args(args: tuple) -> tuple:
    """Each argument frozen once (miniray/copying.py); refs stay refs, to be resolved, and
    values no reader can change (numbers, strings, None) stay as they are."""
    for a in args:
        if type(a) not in _AS_IS:
            return tuple(a if type(a) in _AS_IS or isinstance(a, Frozen) else freeze(a) for a in args)
    return args  # the common case: only numbers, strings and refs


_AS_IS = SCALARS | {ObjectRef}  # an argument kept as it is (a ref is resolved when the task runs)


def demand(opts: dict) -> dict[str, float]:
    req: dict[str, float] = {}
    cpus = opts.get("num_cpus")
    req["CPU"] = 1.0 if cpus is None else float(cpus)
    if opts.get("num_gpus"):
        req["GPU"] = float(opts["num_gpus"])
    if opts.get("memory"):
        req["memory"] = float(opts["memory"])
    for k, v in (opts.get("resources") or {}).items():
        req[k] = float(v)
    return {k: v for k, v in req.items() if v > 0}
