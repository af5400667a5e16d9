"""`ray.cancel(ref, force=False, recursive=True)`: stop the task that would produce `ref`.

What Ray 2.60 does (recorded in the `task_errors` scenario), and miniray with it:

* a task still waiting (for its arguments, for a node, or for a retry) never runs: `get` raises
  TaskCancelledError;
* a running task is interrupted where it is: `get` raises RayTaskError(TaskCancelledError),
  with the line it was interrupted on; its worker lives on and takes the next task;
* `force=True` kills the running task's worker instead: `get` raises a plain TaskCancelledError;
* a cancelled task is never retried; one that already finished keeps its value;
* `recursive=True` (the default) also cancels the tasks the cancelled one submitted;
* an actor call (recorded in the `actor_cancel` scenario) is only flagged once it waits at the
  actor or runs: a sync method runs on to its end (and a queued one still runs in its turn),
  `ray.get_runtime_context().is_canceled()` turns True in it, and `get` raises a plain
  TaskCancelledError; an async method gets asyncio.CancelledError at its await and `get` raises
  RayTaskError(TaskCancelledError). A call still with its caller (arguments pending, actor not
  alive yet) is dropped. `force=True` is refused for actor tasks with Ray's ValueError.
"""

from __future__ import annotations

from . import context
from . import exceptions as exc
from .aio import cancel_running, is_async_method
from .cluster import Worker
from .events import Kind
from .execution import BodyRun
from .objects import ObjectRef
from .runtime import Runtime
from .states import TERMINAL, ActorState, TaskState
from .task_errors import wrap
from .tasks import TaskSpec


def cancel(ray_object_ref, *, force: bool = False, recursive: bool = True) -> None:
    if not isinstance(ray_object_ref, ObjectRef):
        raise TypeError(
            "ray.cancel() only supported for object refs. For actors, try ray.kill(). "
            f"Got: {type(ray_object_ref)}."
        )
    rt = context.runtime()
    entry = rt.objects.entries.get(ray_object_ref.hex())
    spec = None if entry is None else entry.task
    if spec is None:  # a put object, or one already freed: nothing runs to produce it
        return None
    if spec.kind == "actor_task" and force:
        raise ValueError("force=True is not supported for actor tasks.")
    context.interact(rt, lambda: _cancel(rt, spec, force, recursive), "cancel")
    return None


def cancel_spec(rt: Runtime, spec: TaskSpec, *, force: bool = False, recursive: bool = True) -> None:
    """What `ray.cancel` does once it reaches the task, for a caller the simulation plays (the
    `cancel_task` fault kind): the same path, with no learner's call to journal."""
    _cancel(rt, spec, force, recursive)


Runtime.canceller = staticmethod(cancel_spec)  # the cancel_task fault kind's way in


def _cancel(rt: Runtime, spec: TaskSpec, force: bool, recursive: bool) -> None:
    if spec.state in TERMINAL or spec.cancelled or spec.kind == "actor_creation":
        return
    spec.cancelled = True
    rt.emit(Kind.TASK_CANCEL, task=spec.name, attempt=spec.key, force=force, state=spec.state)
    worker = spec.worker if spec.state == TaskState.RUNNING else None
    children = _children(rt, worker) if recursive and worker is not None else []
    if spec.kind == "actor_task":
        _cancel_actor_task(rt, spec)
    elif worker is None:
        _drop_waiting(rt, spec)
        rt.tasks.fail_returns(spec, exc.TaskCancelledError())  # no text, as in Ray
    elif force:
        worker.task, spec.worker = None, None  # detached first: its death is no crash to retry
        worker.node.release(rt.lending.held(spec))  # a running task holds them on its worker's node
        rt.kill_worker(worker, cause="cancelled")
        rt.tasks.fail_returns(spec, exc.TaskCancelledError())
        rt.request_dispatch()
    else:
        body = worker.body
        line = _current_line(body)
        if body is not None:
            body.stop()
        rt.tasks._release(spec)
        error = exc.TaskCancelledError(spec.task_id)
        rt.tasks.fail_returns(spec, _wrap(spec, error, line))
    for child in children:
        _cancel(rt, child, force, recursive)


def _children(rt: Runtime, worker: Worker) -> list[TaskSpec]:
    return [s for s in rt.tasks.all if s.owner is worker and s.state not in TERMINAL]


def _drop_waiting(rt: Runtime, spec: TaskSpec) -> None:
    for queue in rt.tasks.queue.values():
        if spec in queue:
            queue.remove(spec)
            return


def _cancel_actor_task(rt: Runtime, spec: TaskSpec) -> None:
    actor = spec.the_actor()
    if spec in actor.queue and not (spec.args_ready and actor.state == ActorState.ALIVE):
        # Still with its caller (its arguments, or the actor, not ready): it never reaches the actor.
        actor.queue.remove(spec)
        rt.tasks.fail_returns(spec, exc.TaskCancelledError())
        rt.actors.pump(actor)
        return
    # Waiting at the actor, or running: only flagged. It runs in its turn (seeing is_canceled())
    # and its result becomes the cancellation (ActorManager._cancelled).
    body = actor.worker.body if actor.running is spec and actor.worker is not None else None
    if body is not None and body.waiting and is_async_method(actor.cls, spec.fn):
        cancel_running(body)  # CancelledError at its pending await, as Ray's asyncio loop does


def _current_line(body: BodyRun | None) -> str:
    return "" if body is None else f"  (interrupted in {body.key} while it {body.waiting or 'ran'})\n"


def _wrap(spec: TaskSpec, error: BaseException, where: str) -> BaseException:
    return wrap(spec, error, f"{where}{type(error).__module__}.{type(error).__name__}: {error}\n")
