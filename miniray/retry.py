"""The one place that decides whether failed work runs again: retries, restarts, reconstruction.

Ray's rules, for tasks and actors alike:
- a task's attempts share one budget (`max_retries`, or `max_task_retries` for an actor call;
  -1: no limit) between failures and lineage reconstruction;
- an attempt that raised runs again only if `retry_exceptions` allows that exception (True, or a
  list of classes) and budget is left; a worker or node that died under it needs budget only,
  and a node preempted after a drain not even that (miniray/drain.py);
- an actor whose process died restarts while `max_restarts` allows (-1: no limit) and nobody
  killed it with no_restart; its calls in flight run again after the restart only with budget;
- a lost object is rebuilt by re-running its task unless retries are disabled, the actor that
  made it is gone for good, or the budget is spent: each refusal has Ray's reason code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .states import ActorState

if TYPE_CHECKING:  # types only: tasks and actors import this module
    from .actors import Actor
    from .tasks import TaskSpec

RETRIES_DISABLED = "OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED"
MAX_ATTEMPTS_EXCEEDED = "OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED"


def budget(opts: dict, actor_call: bool) -> int:
    """The retry budget a new task starts with, from its options."""
    return opts.get("max_task_retries", 0) if actor_call else opts.get("max_retries", 3)


def exception_allowed(opts: dict, error: BaseException) -> bool:
    """Does `retry_exceptions` allow another attempt after this application error?"""
    allowed = opts.get("retry_exceptions", False)
    if allowed is True:
        return True
    if isinstance(allowed, (list, tuple)):
        return isinstance(error, tuple(allowed))
    return False


def take(spec: TaskSpec) -> bool:
    """Spend one retry of the task's budget; False (and nothing spent) when none is left.

    A task cancelled with ray.cancel is never run again, whatever its budget (as in Ray)."""
    if spec.cancelled:
        return False
    if spec.retries_left == 0:
        return False
    if spec.retries_left > 0:
        spec.retries_left -= 1
    return True


def after_error(spec: TaskSpec, error: BaseException) -> bool:
    """The attempt raised `error`: run the task again?"""
    return exception_allowed(spec.opts, error) and take(spec)


def after_death(spec: TaskSpec, preempted: bool = False) -> bool:
    """The worker or node died under the attempt (or, for an actor call, the actor restarts).

    A node a drain for preemption took down costs nothing: Ray 2.60 runs the task again, its
    budget untouched, whenever it may retry at all (max_retries != 0), even with none left."""
    if preempted and not spec.cancelled and budget(spec.opts, spec.kind == "actor_task") != 0:
        return True
    return take(spec)


# Process deaths after which Ray never restarts an actor: it ended itself cleanly (sys.exit(0),
# exit_actor(), __ray_terminate__), or the worker that created it died (fate sharing).
FINAL_CAUSES = ("intended_exit", "owner_died")


def restarts(actor: Actor, cause: str = "") -> bool:
    """The actor's process died of `cause`: restart it?"""
    if cause in FINAL_CAUSES:
        actor.no_restart = True  # for good: a later death must not restart it either
    if actor.no_restart:
        return False
    return actor.max_restarts == -1 or actor.num_restarts < actor.max_restarts


def reconstruction_refused(spec: TaskSpec) -> str | None:
    """Re-run a finished task whose return was lost? None: yes (a retry is spent); else Ray's reason."""
    actor = spec.actor
    if (
        spec.kind == "actor_task"
        and actor is not None
        and (actor.state == ActorState.DEAD or actor.max_restarts == 0)
    ):
        return RETRIES_DISABLED
    if spec.max_retries == 0:
        return RETRIES_DISABLED
    if not take(spec):
        return MAX_ATTEMPTS_EXCEEDED
    return None
