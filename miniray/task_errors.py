"""What a task's caller receives when it fails: Ray's RayTaskError, with the remote traceback and
the cause, and the texts Ray 2.60 uses for a failed argument (recorded in the `task_errors` and
`reconstruction_failures` scenarios)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import exceptions as exc

if TYPE_CHECKING:  # types only: tasks.py imports this module
    from .tasks import TaskSpec


def wrap(spec: TaskSpec, error: BaseException, tb: str) -> exc.RayTaskError:
    actor = spec.actor
    err = exc.RayTaskError(
        spec.name,
        tb,
        error,
        pid=spec.pid,
        actor_repr=repr(actor) if actor is not None else None,
        actor_id=actor.actor_id if actor is not None else None,
    )
    return err.as_instanceof_cause()


def arg_error(spec: TaskSpec, error: BaseException) -> BaseException:
    """A failed argument fails the task: task errors pass through, lost objects surface inside it."""
    if isinstance(error, exc.ObjectLostError):
        return wrap(spec, error, f"{type(error).__name__}: {error}\n")
    if isinstance(error, exc.StreamingGeneratorReplayInconsistentError):  # inside the dependent's, as
        kind = type(error)  # Ray 2.60 gives it (the `generator_replay` scenario)
        return wrap(spec, error, f"  {ARG_FAILED}\n{kind.__module__}.{kind.__name__}: {error}\n")
    if isinstance(error, exc.RayTaskError):  # Ray wraps an upstream task's error in the dependent's
        return dependent_error(spec, error)
    return error


ARG_FAILED = "At least one of the input arguments for this task could not be computed:"


def dependent_error(spec: TaskSpec, upstream: exc.RayTaskError) -> BaseException:
    """The dependent task's own RayTaskError, naming it first and quoting the upstream error,
    with the upstream's cause, as Ray 2.60 does (recorded in the `task_errors` scenario)."""
    kind = type(upstream)
    text = f"  {ARG_FAILED}\n{kind.__module__}.{kind.__name__}: {upstream}\n"
    actor = spec.actor
    err = exc.RayTaskError(
        spec.name,
        text,
        upstream.cause,
        pid=upstream.pid,
        actor_repr=repr(actor) if actor is not None else None,
        actor_id=actor.actor_id if actor is not None else None,
    )
    return err.as_instanceof_cause()
