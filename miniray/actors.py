"""Actors: one process holding state, method calls run one at a time in order, and restarts.

States follow Ray's: PENDING_CREATION -> ALIVE -> (RESTARTING -> ALIVE)* -> DEAD. When the
process dies, calls in flight are retried after the restart if max_task_retries allows, else
they fail with ActorUnavailableError (a restart is coming) or ActorDiedError (none is).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from . import exceptions as exc
from . import generators, retry
from .aio import is_async_method
from .cluster import PREEMPTED, Node, Worker
from .events import Kind
from .execution import EXIT_ACTOR_REASON, BodyRun, WorkerExit
from .isolation import Export
from .states import ActorState, TaskState
from .task_errors import wrap
from .tasks import TaskSpec, demand, freeze_args

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .runtime import Runtime

OWNER_DEATH_NOTICE_S = 0.1  # how long after its owner's death an orphaned actor dies (an estimate)
# Ray 2.60's words for an actor whose creator's process died (it shares its owner's fate).
OWNER_DIED_DETAIL = (
    "The actor is dead because its owner has died. The owner of this actor is the worker that "
    "created it with .remote(); mark an actor lifetime='detached' to let it outlive its owner."
)


# Ray 2.60's words for an actor that ended itself (sys.exit(0), exit_actor(), __ray_terminate__).
INTENDED_EXIT_DETAIL = (
    "The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT "
    "Worker exit detail: {reason}"
)


def unavailable_reason(cause: str, exit_detail: str) -> str:
    """Why a call failed while its actor restarts; Ray's words for a sys.exit (process_exit)."""
    if exit_detail.startswith("Worker exits with an exit code"):
        return f"The actor is temporarily unavailable: UnexpectedSystemExit: {exit_detail}"
    return f"The actor is restarting after its process died ({cause})"


def _ray_ready(self: Any) -> bool:
    return True


def _ray_terminate(self: Any) -> None:
    raise WorkerExit(EXIT_ACTOR_REASON, intended=True)  # as exit_actor() in one of its methods


# Every Ray actor answers these, though its class defines neither: `__ray_ready__` (True once
# created) and `__ray_terminate__` (exit cleanly after the calls queued before it).
BUILTIN_METHODS = {"__ray_ready__": _ray_ready, "__ray_terminate__": _ray_terminate}


def builtin_method(instance: Any, name: str) -> Any:
    """The bound built-in method `name` of an actor instance, or None if it is not one."""
    fn = BUILTIN_METHODS.get(name)
    return None if fn is None else fn.__get__(instance)


class Actor:
    def __init__(self, rt: Runtime, cls: type, args: tuple, kwargs: dict, opts: dict, owner: Worker):
        self.rt = rt
        self.actor_id = rt.ids.new("actor")
        self.cls = cls
        self.class_name = cls.__name__
        self.name = opts.get("name")
        # Serialized once, at .remote(): every restart is built from the same arguments, as in Ray.
        self.args, self.opts = freeze_args(args), opts
        self.kwargs = dict(zip(kwargs, freeze_args(tuple(kwargs.values()))))
        self.owner = owner
        self.state = ActorState.PENDING_CREATION
        self.num_restarts = 0
        self.instance: Any = None
        self.worker: Worker | None = None
        self.node: Node | None = None
        self.queue: deque[TaskSpec] = deque()
        self.running: TaskSpec | None = None
        self.no_restart = False
        self.exit_detail = ""  # how its process last exited, when a body ended it (sys.exit, exit_actor)
        self.held = (
            demand(opts)
            if (opts.get("num_cpus") is not None or opts.get("resources") or opts.get("num_gpus"))
            else {}
        )
        # Its demand before a placement group renamed it to the bundle's resources (placement/manager).
        self.pg_held: dict[str, float] | None = None
        self.creation: TaskSpec | None = None  # the creation task of its current incarnation
        self.death: BaseException | None = None
        self.ordinal = rt.next_ordinal(f"actor:{self.class_name}")
        # Its class as exported at this first .remote(): each incarnation's process starts from it.
        self.export: Export | None = rt.exports.of(cls)

    def __repr__(self) -> str:
        return f"{self.class_name}({self.actor_id[:8]})"

    @property
    def max_restarts(self) -> int:
        return self.opts.get("max_restarts", 0)


class ActorManager:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.actors: dict[str, Actor] = {}
        self.named: dict[str, Actor] = {}

    # -- creation -----------------------------------------------------------------------------
    def create(self, cls, args, kwargs, opts, owner) -> Actor:
        name = opts.get("name")
        if name and name in self.named:
            if opts.get("get_if_exists"):
                return self.named[name]
            raise exc.ActorAlreadyExistsError(
                f"An actor named '{name}' already exists; pick another name, or pass "
                "get_if_exists=True to reuse it."
            )
        actor = Actor(self.rt, cls, args, kwargs, opts, owner)
        self.actors[actor.actor_id] = actor
        if name:
            self.named[name] = actor
        self.rt.emit(Kind.ACTOR_CREATE, actor=repr(actor), name=name or "")
        self._schedule_creation(actor)
        return actor

    def _schedule_creation(self, actor: Actor) -> None:
        spec = TaskSpec(
            self.rt,
            f"{actor.class_name}.__init__",
            None,
            actor.args,
            actor.kwargs,
            dict(actor.opts, max_retries=0),
            actor.owner,
            kind="actor_creation",
            actor=actor,
        )
        spec.resources = demand(actor.opts) if actor.held else {"CPU": 1.0}
        actor.creation = spec
        self.rt.tasks.resolve(spec)

    def place(self, spec: TaskSpec, node: Node) -> None:
        actor = spec.the_actor()
        if actor.state == ActorState.DEAD:
            return
        node.acquire(actor.held)
        worker = self.rt.new_worker(node, "actor")
        worker.actor = actor
        actor.worker, actor.node = worker, node
        spec.attempts += 1
        spec.pid = worker.pid
        instance = actor.cls.__new__(actor.cls)  # type: ignore[call-overload]  # any user class
        self.rt.emit(
            Kind.ACTOR_START, actor=repr(actor), node=node.name, worker=worker.pid, restart=actor.num_restarts
        )

        def created(_value: Any) -> None:
            actor.instance = instance
            self._set_state(actor, ActorState.ALIVE)
            self.pump(actor)

        def init_failed(error: BaseException, tb: str) -> None:
            cause = wrap(spec, error, tb)
            self._die(actor, exc.ActorDiedError(actor.actor_id, init_error=cause), "creation_error")

        body = BodyRun(
            self.rt,
            worker,
            f"{actor.class_name}.__init__#{actor.ordinal}/{actor.num_restarts}",
            actor.class_name,
            instance.__init__,
            spec.arg_values or (),
            spec.kwarg_values or {},
            on_return=created,
            on_raise=init_failed,
            export=actor.export,
        )
        worker.body = body
        self.rt.call_later(0.0, body.start, label="actor-init")

    # -- method calls --------------------------------------------------------------------------
    def call(self, actor: Actor, method: str, args, kwargs, opts, owner, num_returns: int) -> list:
        merged = {
            "max_task_retries": actor.opts.get("max_task_retries", 0),
            "retry_exceptions": actor.opts.get("retry_exceptions", False),
        }
        merged.update({k: v for k, v in opts.items() if v is not None})
        spec = TaskSpec(
            self.rt,
            f"{actor.class_name}.{method}",
            method,
            args,
            kwargs,
            merged,
            owner,
            kind="actor_task",
            actor=actor,
        )
        return self.rt.tasks.submit(spec, num_returns)

    def accept(self, spec: TaskSpec) -> None:
        """Queue the call in submission order now; it runs once its arguments are resolved."""
        actor = spec.the_actor()
        if actor.state == ActorState.DEAD:
            self.rt.tasks.fail_returns(spec, actor.death or exc.ActorDiedError(actor.actor_id))
            return
        spec.args_ready = False
        actor.queue.append(spec)
        self.rt.tasks.resolve(spec)

    def arg_ready(self, spec: TaskSpec) -> None:
        spec.args_ready = True
        spec.state = TaskState.PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY
        self.pump(spec.the_actor())

    def pump(self, actor: Actor) -> None:
        while actor.queue and actor.queue[0].state == TaskState.FAILED:  # an argument failed: never runs
            actor.queue.popleft()
        if actor.state != ActorState.ALIVE or actor.running is not None or not actor.queue:
            return
        if not actor.queue[0].args_ready:
            return
        spec = actor.queue.popleft()
        actor.running = spec
        node, worker = actor.node, actor.worker
        assert node is not None and worker is not None  # an ALIVE actor has both
        fn = builtin_method(actor.instance, spec.fn) or getattr(actor.instance, spec.fn)
        if spec.generator is not None:  # a generator method yields through its stream
            fn = generators.body_for(fn, spec, spec.generator)
        self.rt.tasks.launch(
            spec,
            node,
            worker,
            fn,
            actor.class_name,
            on_return=lambda value: self._returned(actor, spec, value),
            on_raise=lambda e, tb: self._raised(actor, spec, e, tb),
            instance=actor.instance,
            timer_label="actor-call",
            export=actor.export,
        )

    def _returned(self, actor: Actor, spec: TaskSpec, value: Any) -> None:
        actor.running = None
        if spec.cancelled:  # ray.cancel flagged it while it waited or ran (miniray/cancel.py)
            self._cancelled(actor, spec)
            return
        self.rt.tasks.store_returns(spec, value, actor.node)
        self.pump(actor)

    def _cancelled(self, actor: Actor, spec: TaskSpec) -> None:
        """Its result is the cancellation, as Ray 2.60 gives it (the `actor_cancel` scenario): a
        plain TaskCancelledError for a sync method, which ran on to its end; RayTaskError(
        TaskCancelledError) for an async one, cancelled at its await. Never retried."""
        error: BaseException = exc.TaskCancelledError(spec.task_id)
        if is_async_method(actor.cls, spec.fn):
            error = wrap(spec, error, f"TaskCancelledError: {error}\n")
        self.rt.tasks.fail_returns(spec, error)
        self.pump(actor)

    def _raised(self, actor: Actor, spec: TaskSpec, error: BaseException, tb: str) -> None:
        actor.running = None
        if spec.cancelled:
            self._cancelled(actor, spec)
            return
        again = retry.after_error(spec, error)
        self.rt.emit(
            Kind.TASK_ERROR, task=spec.name, attempt=spec.key, error=type(error).__name__, retry=again
        )
        if again:
            actor.queue.appendleft(spec)
        else:
            self.rt.tasks.fail_returns(spec, wrap(spec, error, tb))
        self.pump(actor)

    # -- death and restart ---------------------------------------------------------------------
    def process_died(self, actor: Actor, cause: str) -> None:
        """The actor's worker process is gone (crash, os._exit, node death or ray.kill)."""
        if actor.state == ActorState.DEAD:
            return
        if actor.node is not None and actor.node.alive:
            actor.node.release(actor.held)
        actor.worker = None
        exit_detail, actor.exit_detail = actor.exit_detail, ""
        inflight = ([actor.running] if actor.running is not None else []) + list(actor.queue)
        actor.running = None
        actor.queue.clear()
        if retry.restarts(actor, cause):
            self._set_state(actor, ActorState.RESTARTING, cause=cause)
            for spec in inflight:
                if spec.cancelled:  # cancelled calls are never retried, as in Ray
                    self.rt.tasks.fail_returns(spec, exc.TaskCancelledError(spec.task_id))
                elif retry.after_death(spec):
                    spec.state = TaskState.PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY
                    actor.queue.append(spec)
                else:
                    self.rt.tasks.fail_returns(
                        spec,
                        exc.ActorUnavailableError(unavailable_reason(cause, exit_detail), actor.actor_id),
                    )
            self.rt.call_later(
                self.rt.config["actor_restart_delay_s"], self._restart, actor, label="actor-restart"
            )
            return
        detail = {
            "killed": "The actor was killed by ray.kill().",
            "node_died": "The actor died because its node died.",
            "intended_exit": INTENDED_EXIT_DETAIL.format(reason=exit_detail),
            "owner_died": OWNER_DIED_DETAIL,
        }.get(cause, "The actor died because its worker process died.")
        # A node a drain for preemption took down, however it went (Ray: AUTOSCALER_DRAIN_PREEMPTED).
        death = actor.node.death if actor.node is not None and cause == "node_died" else (0, "")
        preempted = death[0] == PREEMPTED
        if preempted:
            detail += f"\n\tthe actor's node was preempted: {death[1]}"
        self._die(
            actor,
            exc.ActorDiedError(
                actor.actor_id, detail=detail, class_name=actor.class_name, preempted=preempted
            ),
            cause,
            inflight,
        )

    def _die(self, actor: Actor, error: BaseException, cause: str, inflight=None) -> None:
        calls = list(inflight or []) + list(actor.queue)
        if actor.running is not None:
            calls.insert(0, actor.running)
        actor.running = None
        actor.queue.clear()
        actor.death = error
        self._set_state(actor, ActorState.DEAD, cause=cause)
        if actor.worker is not None and actor.worker.alive:
            worker, actor.worker = actor.worker, None
            worker.actor = None
            self.rt.kill_worker(worker, cause="actor_exit")
        if actor.name and self.named.get(actor.name) is actor:
            del self.named[actor.name]
        for spec in calls:
            self.rt.tasks.fail_returns(spec, error)

    def _restart(self, actor: Actor) -> None:
        if actor.state != ActorState.RESTARTING:
            return
        actor.num_restarts += 1
        self._schedule_creation(actor)

    def kill(self, actor: Actor, no_restart: bool) -> None:
        self.rt.emit(Kind.ACTOR_KILL, actor=repr(actor), no_restart=no_restart)
        if no_restart:
            actor.no_restart = True
        if actor.worker is not None and actor.worker.alive:
            self.rt.kill_worker(actor.worker, cause="killed")
        elif actor.state != ActorState.DEAD:
            self.process_died(actor, "killed")

    def owner_died(self, worker: Worker) -> None:
        """Ray's fate sharing: an actor dies with the worker that created it, unless detached.

        Not at once: Ray learns of the owner's death through the GCS, so a call made right after
        the owner was killed may still be answered (Ray's actor_creator_failure example prints
        "actor.ping: hello"). miniray waits OWNER_DEATH_NOTICE_S of virtual time.
        """
        orphans = [
            actor
            for actor in self.actors.values()
            if actor.owner is worker
            and actor.state != ActorState.DEAD
            and actor.opts.get("lifetime") != "detached"
        ]
        for actor in orphans:
            self.rt.call_later(OWNER_DEATH_NOTICE_S, self._orphaned, actor, label="owner-died")

    def _orphaned(self, actor: Actor) -> None:
        if actor.state == ActorState.DEAD:
            return
        if actor.worker is not None and actor.worker.alive:
            self.rt.kill_worker(actor.worker, cause="owner_died")
        else:
            self.process_died(actor, "owner_died")

    def _set_state(self, actor: Actor, state: ActorState, cause: str = "") -> None:
        actor.state = state
        fields = {"actor": repr(actor), "state": state}
        if cause:
            fields["cause"] = cause
        self.rt.emit(Kind.ACTOR_STATE, **fields)

    # -- lineage of actor-task outputs -----------------------------------------------------------
    def resubmit(self, spec: TaskSpec) -> None:
        self.accept(spec)
