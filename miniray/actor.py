"""`ray.actor`'s pieces a learner calls: `exit_actor()`, and the methods every actor has.

Every Ray actor answers `__ray_ready__` (True once created) and `__ray_terminate__` (exit
cleanly after the calls queued before it), even though its class defines neither.
"""

from __future__ import annotations

from typing import Any

from . import context


def exit_actor() -> None:
    """End the current actor for good, from inside one of its methods: it is not restarted.

    As in Ray, the call running it and every later call fail with ActorDiedError.
    """
    rt = context.current()
    body = rt.current[-1] if rt is not None and rt.current else None
    if body is None or body.worker.actor is None:
        raise TypeError("exit_actor API is called on a non-actor worker.")
    from .execution import WorkerExit

    raise WorkerExit(
        "Worker exits by an user request. Worker exits with an exit code 0. exit_actor() is called.",
        intended=True,
    )


def _ray_ready(self) -> bool:
    return True


def _ray_terminate(self) -> None:
    exit_actor()


BUILTIN_METHODS = {"__ray_ready__": _ray_ready, "__ray_terminate__": _ray_terminate}


def builtin_method(instance: Any, name: str):
    """The bound built-in method `name` of an actor instance, or None if it is not one."""
    fn = BUILTIN_METHODS.get(name)
    return None if fn is None else fn.__get__(instance)
