"""The exceptions learners meet in production, with Ray 2.60's class names and bases.

`RayTaskError.as_instanceof_cause()` builds a class that inherits from both RayTaskError and the
user's exception class, so `except ValueError` catches a remote ValueError, as in Ray.
"""

from __future__ import annotations

import logging


class RayError(Exception):
    """Base of every miniray error, as `ray.exceptions.RayError`."""


class CrossLanguageError(RayError):
    pass


class TaskCancelledError(RayError):
    def __init__(self, task_id: str | None = None):
        self.task_id = task_id

    def __str__(self) -> str:
        # Ray 2.60's words; a force-cancelled task's error has no text at all in Ray.
        return f"Task: TaskID({self.task_id}) was cancelled." if self.task_id else ""


class RayTaskError(RayError):
    """A task or actor method raised; carries the remote traceback text and the cause."""

    def __init__(
        self,
        function_name,
        traceback_str,
        cause,
        proctitle=None,
        pid=None,
        ip=None,
        actor_repr=None,
        actor_id=None,
    ):
        self.function_name = function_name
        self.traceback_str = traceback_str
        self.cause = cause
        self.proctitle = proctitle or f"ray::{function_name}"
        self.pid = pid
        self.ip = ip or "127.0.0.1"
        self.actor_repr = actor_repr
        self._actor_id = actor_id
        self.args = (function_name, traceback_str, cause, proctitle, pid, ip)

    def as_instanceof_cause(self) -> RayTaskError:
        cause_cls = type(self.cause)
        if issubclass(RayTaskError, cause_cls):
            return self
        cls = _dual_class(cause_cls)
        if cls is RayTaskError:  # the cause's class refuses subclasses: Ray warns, keeps the plain error
            _log.warning(
                "User exception type %s in RayTaskError can't be subclassed! This exception is "
                "raised as RayTaskError only. You can use `ray_task_error.cause` to access the user "
                "exception. Failure in subclassing: %s",
                cause_cls,
                _UNSUBCLASSABLE.get(cause_cls, ""),
            )
            return self
        return cls(self)

    def __str__(self) -> str:
        header = f"{self.proctitle}() (pid={self.pid}, ip={self.ip}"
        if self.actor_repr:
            header += f", actor_id={self._actor_id}, repr={self.actor_repr}"
        return header + ")\n" + self.traceback_str.rstrip("\n")


_DUAL_CLASSES: dict[type, type] = {}
_UNSUBCLASSABLE: dict[type, str] = {}  # cause class -> why subclassing it failed
_log = logging.getLogger("miniray")


def _dual_class(cause_cls: type) -> type:
    """One cached `RayTaskError(Cause)` class per cause class, so isinstance and pickling agree."""
    cls = _DUAL_CLASSES.get(cause_cls)
    if cls is not None:
        return cls

    def __init__(self, task_error):
        # Skip the cause class's __init__: its signature is the user's, not ours.
        self.__dict__.update(task_error.__dict__)
        self._ray_task_error_args = (task_error.cause,)

    def _args(self):
        return self._ray_task_error_args

    def __getattr__(self, name):
        cause = self.__dict__.get("cause")
        if cause is None:
            raise AttributeError(name)
        return getattr(cause, name)

    name = f"RayTaskError({cause_cls.__name__})"
    try:
        cls = type(
            name,
            (RayTaskError, cause_cls),
            {
                "__init__": __init__,
                "args": property(_args, lambda self, v: None),
                "__getattr__": __getattr__,
                "__str__": RayTaskError.__str__,
                "__module__": __name__,
            },
        )
    except TypeError as e:  # a cause class that can't be subclassed: fall back to plain RayTaskError
        cls = RayTaskError
        _UNSUBCLASSABLE[cause_cls] = str(e)
    _DUAL_CLASSES[cause_cls] = cls
    return cls


class LocalRayletDiedError(RayError):
    def __str__(self) -> str:
        return "The task's local raylet died."


class WorkerCrashedError(RayError):
    """The worker process died while it ran this task (and no retry was left)."""

    def __str__(self) -> str:
        return (
            "The worker died unexpectedly while executing this task. "
            "Check the event log (miniray.sim.event_log()) for the crash."
        )


class RayActorError(RayError):
    BASE_ERROR_MSG = "The actor experienced an error before finishing this task."

    def __init__(
        self,
        actor_id: str | None = None,
        error_msg: str = BASE_ERROR_MSG,
        actor_init_failed: bool = False,
        preempted: bool = False,
    ):
        self.actor_id = actor_id
        self.error_msg = error_msg
        self._actor_init_failed = actor_init_failed
        self._preempted = preempted

    def __str__(self) -> str:
        return self.error_msg

    @property
    def actor_init_failed(self) -> bool:
        return self._actor_init_failed

    @property
    def preempted(self) -> bool:
        return self._preempted


class ActorDiedError(RayActorError):
    """The actor is dead for good: its process died with no restart left, or it was killed."""

    BASE_ERROR_MSG = "The actor died unexpectedly before finishing this task."

    def __init__(
        self,
        actor_id: str | None = None,
        detail: str = "",
        class_name: str = "",
        init_error: RayTaskError | None = None,
        preempted: bool = False,
    ):
        if init_error is not None:
            msg = f"The actor died because of an error raised in its creation task, {init_error}"
        else:
            lines = [self.BASE_ERROR_MSG]
            if class_name:
                lines.append(f"\tclass_name: {class_name}")
            if actor_id:
                lines.append(f"\tactor_id: {actor_id}")
            if detail:
                lines.append(detail)
            msg = "\n".join(lines)
        super().__init__(actor_id, msg, actor_init_failed=init_error is not None, preempted=preempted)


class ActorUnavailableError(RayActorError):
    """The actor is restarting: this call may or may not have run on it."""

    def __init__(self, error_message: str, actor_id: str | None):
        super().__init__(
            actor_id,
            f"The actor {actor_id} is unavailable: {error_message}. "
            "The task may or may not have been executed on the actor.",
        )


class RaySystemError(RayError):
    def __init__(self, client_exc, traceback_str=None):
        self.client_exc = client_exc
        self.traceback_str = traceback_str

    def __str__(self) -> str:
        return f"System error: {self.client_exc}"


class StreamingGeneratorReplayInconsistentError(RaySystemError):
    """A streaming generator re-run to rebuild a lost item yielded a different number of items
    than its first successful run (miniray/generators.py): Ray 2.60 fails its items rather than
    leave a consumer waiting for an item that never comes, or drop the extra ones silently."""


class ObjectStoreFullError(RayError):
    pass


class OutOfMemoryError(RayError):
    """The memory monitor killed the task's worker and the task may not run again (miniray/memory)."""

    def __init__(self, message: str):
        self.message = message

    def __str__(self) -> str:
        return self.message


class NodeDiedError(RayError):
    def __init__(self, message: str):
        self.message = message

    def __str__(self) -> str:
        return self.message


class ObjectLostError(RayError):
    """Every copy of the object is gone."""

    def __init__(self, object_ref_hex: str, owner_address: str | None = None, call_site: str = ""):
        self.object_ref_hex = object_ref_hex
        self.owner_address = owner_address
        self.call_site = call_site

    def _base_str(self) -> str:
        msg = f"Failed to retrieve object {self.object_ref_hex}. "
        if self.call_site:
            msg += f"The ObjectRef was created at: {self.call_site}"
        return msg

    def __str__(self) -> str:
        return (
            self._base_str() + f"\n\nAll copies of {self.object_ref_hex} have been lost due to node failure."
        )


class ObjectFetchTimedOutError(ObjectLostError):
    pass


class ReferenceCountingAssertionError(ObjectLostError, AssertionError):
    pass


class ObjectFreedError(ObjectLostError):
    def __str__(self) -> str:
        return self._base_str() + "\n\nThe object was manually freed by the application."


class OwnerDiedError(ObjectLostError):
    def __str__(self) -> str:
        return (
            self._base_str() + "\n\nThe object's owner has exited. This is the worker that first "
            "created the ObjectRef via `.remote()` or `ray.put()`"
            + (f" ({self.owner_address})" if self.owner_address else "")
            + "."
        )


class ObjectReconstructionFailedError(ObjectLostError):
    """Lineage reconstruction was needed and could not run; `reason` names why, as in Ray."""

    REASON_MESSAGES = {
        "OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED": (
            "The object cannot be reconstructed because the maximum number of task retries has "
            "been exceeded. Consider increasing the number of retries using "
            "`@ray.remote(max_retries=N)`."
        ),
        "OBJECT_UNRECONSTRUCTABLE_PUT": (
            "The object cannot be reconstructed because it was created by ray.put(), which has no "
            "task lineage. To prevent this error, return the value from a task instead."
        ),
        "OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED": (
            "The object cannot be reconstructed because the task was created with max_retries=0. "
            "Consider enabling retries using `@ray.remote(max_retries=N)`."
        ),
        "OBJECT_UNRECONSTRUCTABLE_LINEAGE_EVICTED": (
            "The object cannot be reconstructed because its lineage has been evicted."
        ),
    }

    def __init__(
        self,
        object_ref_hex: str,
        reason: str = "",
        reason_message: str = "",
        owner_address: str | None = None,
        call_site: str = "",
    ):
        super().__init__(object_ref_hex, owner_address, call_site)
        self.reason = reason
        self.reason_message = reason_message or self.REASON_MESSAGES.get(reason, "")

    def __str__(self) -> str:
        return self._base_str() + f"\n\n[{self.reason or 'UNKNOWN'}] {self.reason_message}"


class GetTimeoutError(RayError, TimeoutError):
    pass


class PlasmaObjectNotAvailable(RayError):
    pass


class TaskPlacementGroupRemoved(RayError):
    pass


class ActorPlacementGroupRemoved(RayError):
    pass


class PendingCallsLimitExceeded(RayError):
    pass


class TaskUnschedulableError(RayError):
    def __init__(self, error_message: str):
        self.error_message = error_message

    def __str__(self) -> str:
        return f"The task is not schedulable: {self.error_message}"


class ActorUnschedulableError(RayError):
    def __init__(self, error_message: str):
        self.error_message = error_message

    def __str__(self) -> str:
        return f"The actor is not schedulable: {self.error_message}"


class ActorAlreadyExistsError(ValueError, RayError):
    pass


# -- the simulator's own errors: not Ray's, but what a learner meets when a run cannot go on ----------
class SimulationError(RuntimeError):
    """The simulation cannot go on: a budget is spent or nothing can make progress."""


class BudgetExceeded(SimulationError):
    """An event, virtual-time or line budget is spent (miniray.sim.set_budget raises them)."""


class Stalled(SimulationError):
    """Nothing left can ever make progress: the driver waits on work that cannot run."""
