"""`ray.actor`'s pieces a learner calls: `exit_actor()`.

Every Ray actor also answers `__ray_ready__` and `__ray_terminate__`, though its class defines
neither: those live with the actors themselves (`miniray.actors.BUILTIN_METHODS`).
"""

from __future__ import annotations

from . import context
from .execution import EXIT_ACTOR_REASON, WorkerExit


def exit_actor() -> None:
    """End the current actor for good, from inside one of its methods: it is not restarted.

    As in Ray, the call running it and every later call fail with ActorDiedError.
    """
    rt = context.current()
    body = rt._current[-1] if rt is not None and rt._current else None
    if body is None or body.worker.actor is None:
        raise TypeError("exit_actor API is called on a non-actor worker.")
    raise WorkerExit(EXIT_ACTOR_REASON, intended=True)
