"""Actors: one process holding state, method calls run one at a time in order, and restarts.

States follow Ray's: PENDING_CREATION -> ALIVE -> (RESTARTING -> ALIVE)* -> DEAD. When the
process dies, calls in flight are retried after the restart if max_task_retries allows, else
they fail with ActorUnavailableError (a restart is coming) or ActorDiedError (none is).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from . import exceptions as exc
from .actor import builtin_method
from .execution import BodyRun
from .process import INTENDED_EXIT_DETAIL
from .tasks import TaskSpec, demand, should_retry_exception, wrap

OWNER_DEATH_NOTICE_S = 0.1  # how long after its owner's death an orphaned actor dies (an estimate)
# Ray 2.60's words for an actor whose creator's process died (it shares its owner's fate).
OWNER_DIED_DETAIL = (
    "The actor is dead because its owner has died. The owner of this actor is the worker that "
    "created it with .remote(); mark an actor lifetime='detached' to let it outlive its owner."
)


def unavailable_reason(cause: str, exit_detail: str) -> str:
    """Why a call failed while its actor restarts; Ray's words for a sys.exit (process_exit)."""
    if exit_detail.startswith("Worker exits with an exit code"):
        return f"The actor is temporarily unavailable: UnexpectedSystemExit: {exit_detail}"
    return f"The actor is restarting after its process died ({cause})"


class Actor:
    def __init__(self, rt, cls, args, kwargs, opts, owner):
        self.rt = rt
        self.actor_id = rt.ids.new("actor")
        self.cls = cls
        self.class_name = cls.__name__
        self.name = opts.get("name")
        self.args, self.kwargs, self.opts = args, kwargs, opts
        self.owner = owner
        self.state = "PENDING_CREATION"
        self.num_restarts = 0
        self.instance: Any = None
        self.worker = None
        self.node = None
        self.queue: deque[TaskSpec] = deque()
        self.running: TaskSpec | None = None
        self.no_restart = False
        self.held = (
            demand(opts)
            if (opts.get("num_cpus") is not None or opts.get("resources") or opts.get("num_gpus"))
            else {}
        )
        self.death: BaseException | None = None
        self.ordinal = rt.next_ordinal(f"actor:{self.class_name}")

    def __repr__(self) -> str:
        return f"{self.class_name}({self.actor_id[:8]})"

    @property
    def max_restarts(self) -> int:
        return self.opts.get("max_restarts", 0)

    def restarts_left(self) -> bool:
        return self.max_restarts == -1 or self.num_restarts < self.max_restarts


class ActorManager:
    def __init__(self, rt):
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
        self.rt.emit("actor.create", actor=repr(actor), name=name or "")
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

    def place(self, spec: TaskSpec, node) -> None:
        actor = spec.actor
        if actor.state == "DEAD":
            return
        node.acquire(actor.held)
        worker = self.rt.new_worker(node, "actor")
        worker.actor = actor
        actor.worker, actor.node = worker, node
        spec.attempts += 1
        spec.pid = worker.pid
        instance = actor.cls.__new__(actor.cls)
        self.rt.emit(
            "actor.start", actor=repr(actor), node=node.name, worker=worker.pid, restart=actor.num_restarts
        )

        def created(_value: Any) -> None:
            actor.instance = instance
            self._set_state(actor, "ALIVE")
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
        )
        worker.body = body
        self.rt.kernel.schedule(0.0, body.start, label="actor-init")

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
        actor = spec.actor
        if actor.state == "DEAD":
            self.rt.tasks.fail_returns(spec, actor.death or exc.ActorDiedError(actor.actor_id))
            return
        spec.args_ready = False
        actor.queue.append(spec)
        self.rt.tasks.resolve(spec)

    def arg_ready(self, spec: TaskSpec) -> None:
        spec.args_ready = True
        spec.state = "PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY"
        self.pump(spec.actor)

    def pump(self, actor: Actor) -> None:
        while actor.queue and actor.queue[0].state == "FAILED":  # an argument failed: never runs
            actor.queue.popleft()
        if actor.state != "ALIVE" or actor.running is not None or not actor.queue:
            return
        if not actor.queue[0].args_ready:
            return
        spec = actor.queue.popleft()
        actor.running = spec
        spec.attempts += 1
        spec.state = "RUNNING"
        spec.node, spec.worker, spec.pid = actor.node, actor.worker, actor.worker.pid
        fetch = self.rt.objects.fetch_cost(spec.deps())  # spilled arguments are read from disk first
        extra = {"fetch_s": fetch} if fetch else {}
        self.rt.emit(
            "task.start",
            task=spec.name,
            attempt=spec.key,
            node=actor.node.name,
            worker=actor.worker.pid,
            **extra,
        )
        fn = builtin_method(actor.instance, spec.fn) or getattr(actor.instance, spec.fn)  # hook: actor.py
        if spec.opts.get("_generator"):  # hook (miniray/generators.py): a generator method
            from .generators import body_for

            fn = body_for(fn, spec, spec.opts["_generator"])
        body = BodyRun(
            self.rt,
            actor.worker,
            spec.key,
            actor.class_name,
            fn,
            spec.arg_values or (),
            spec.kwarg_values or {},
            instance=actor.instance,
            on_return=lambda value: self._returned(actor, spec, value),
            on_raise=lambda e, tb: self._raised(actor, spec, e, tb),
        )
        actor.worker.body = body
        timer = self.rt.kernel.schedule(fetch, body.start, label="actor-call")
        if fetch:
            body.timers.append(timer)

    def _returned(self, actor: Actor, spec: TaskSpec, value: Any) -> None:
        actor.running = None
        if getattr(spec, "cancelled", False):  # hook (miniray/cancel.py): cancelled while it ran
            error = exc.TaskCancelledError(spec.task_id)
            self.rt.tasks.fail_returns(spec, wrap(spec, error, f"TaskCancelledError: {error}\n"))
            self.pump(actor)
            return
        self.rt.tasks.store_returns(spec, value, actor.node)
        self.pump(actor)

    def _raised(self, actor: Actor, spec: TaskSpec, error: BaseException, tb: str) -> None:
        actor.running = None
        retry = should_retry_exception(spec.opts, error) and spec.use_retry()
        self.rt.emit("task.error", task=spec.name, attempt=spec.key, error=type(error).__name__, retry=retry)
        if retry:
            actor.queue.appendleft(spec)
        else:
            self.rt.tasks.fail_returns(spec, wrap(spec, error, tb))
        self.pump(actor)

    # -- death and restart ---------------------------------------------------------------------
    def process_died(self, actor: Actor, cause: str) -> None:
        """The actor's worker process is gone (crash, os._exit, node death or ray.kill)."""
        if actor.state == "DEAD":
            return
        if cause in ("intended_exit", "owner_died"):  # hook: a clean exit or an orphan is not restarted
            actor.no_restart = True
        if actor.node is not None and actor.node.alive:
            actor.node.release(actor.held)
        actor.worker = None
        exit_detail, actor.exit_detail = getattr(actor, "exit_detail", ""), ""  # hook: process.py
        inflight = ([actor.running] if actor.running is not None else []) + list(actor.queue)
        actor.running = None
        actor.queue.clear()
        if not actor.no_restart and actor.restarts_left():
            self._set_state(actor, "RESTARTING", cause=cause)
            for spec in inflight:
                if spec.use_retry():
                    spec.state = "PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY"
                    actor.queue.append(spec)
                else:
                    self.rt.tasks.fail_returns(
                        spec,
                        exc.ActorUnavailableError(unavailable_reason(cause, exit_detail), actor.actor_id),
                    )
            self.rt.kernel.schedule(
                self.rt.config["actor_restart_delay_s"], self._restart, actor, label="actor-restart"
            )
            return
        detail = {
            "killed": "The actor was killed by ray.kill().",
            "node_died": "The actor died because its node died.",
            "intended_exit": INTENDED_EXIT_DETAIL.format(reason=exit_detail),
            "owner_died": OWNER_DIED_DETAIL,
        }.get(cause, "The actor died because its worker process died.")
        self._die(
            actor,
            exc.ActorDiedError(actor.actor_id, detail=detail, class_name=actor.class_name),
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
        self._set_state(actor, "DEAD", cause=cause)
        if actor.worker is not None and actor.worker.alive:
            worker, actor.worker = actor.worker, None
            worker.actor = None
            self.rt.kill_worker(worker, cause="actor_exit")
        if actor.name and self.named.get(actor.name) is actor:
            del self.named[actor.name]
        for spec in calls:
            self.rt.tasks.fail_returns(spec, error)

    def _restart(self, actor: Actor) -> None:
        if actor.state != "RESTARTING":
            return
        actor.num_restarts += 1
        self._schedule_creation(actor)

    def kill(self, actor: Actor, no_restart: bool) -> None:
        self.rt.emit("actor.kill", actor=repr(actor), no_restart=no_restart)
        if no_restart:
            actor.no_restart = True
        if actor.worker is not None and actor.worker.alive:
            self.rt.kill_worker(actor.worker, cause="killed")
        elif actor.state != "DEAD":
            self.process_died(actor, "killed")

    def owner_died(self, worker) -> None:
        """Ray's fate sharing: an actor dies with the worker that created it, unless detached.

        Not at once: Ray learns of the owner's death through the GCS, so a call made right after
        the owner was killed may still be answered (Ray's actor_creator_failure example prints
        "actor.ping: hello"). miniray waits OWNER_DEATH_NOTICE_S of virtual time.
        """
        orphans = [
            actor
            for actor in self.actors.values()
            if actor.owner is worker and actor.state != "DEAD" and actor.opts.get("lifetime") != "detached"
        ]
        for actor in orphans:
            self.rt.kernel.schedule(OWNER_DEATH_NOTICE_S, self._orphaned, actor, label="owner-died")

    def _orphaned(self, actor: Actor) -> None:
        if actor.state == "DEAD":
            return
        if actor.worker is not None and actor.worker.alive:
            self.rt.kill_worker(actor.worker, cause="owner_died")
        else:
            self.process_died(actor, "owner_died")

    def _set_state(self, actor: Actor, state: str, cause: str = "") -> None:
        actor.state = state
        fields = {"actor": repr(actor), "state": state}
        if cause:
            fields["cause"] = cause
        self.rt.emit("actor.state", **fields)

    # -- lineage of actor-task outputs -----------------------------------------------------------
    def can_reexecute(self, spec: TaskSpec) -> bool:
        actor = spec.actor
        return actor.state != "DEAD" and actor.max_restarts != 0 and spec.max_retries != 0

    def resubmit(self, spec: TaskSpec) -> None:
        self.accept(spec)
