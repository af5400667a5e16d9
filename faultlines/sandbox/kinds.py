"""miniray's own kinds of object, as the judge tells them apart, through miniray's public face.

The judge builds real remote functions and actor classes for the learner's (with `miniray.remote`)
and checks what the jail hands it is one (a remote function to submit, an actor handle to call).
It never imports past `miniray`, `miniray.sim` and `miniray.exceptions` for that: the types come
from objects the public API makes, and miniray's early ends of a body (a body that blocked, a
worker that crashed, a nondeterministic re-run) are the BaseExceptions miniray raises that are not
Exceptions.
"""

from __future__ import annotations

from typing import Any

import miniray


def _probe() -> None:
    """Only its type is used."""


class _Probe:
    """Only its type is used."""


REMOTE_FUNCTION: type = type(miniray.remote(_probe))
ACTOR_CLASS: type = type(miniray.remote(_Probe))


def is_remote_function(obj: Any) -> bool:
    return isinstance(obj, REMOTE_FUNCTION)


def is_actor_class(obj: Any) -> bool:
    return isinstance(obj, ACTOR_CLASS)


def is_actor_handle(obj: Any) -> bool:
    """An actor handle (what an actor class's `.remote()` returns): miniray exports no name for
    its type, and one cannot be made without a cluster, so it is known by its class's name."""
    cls = type(obj)
    return cls.__name__ == "ActorHandle" and cls.__module__.split(".")[0] == "miniray"


def ends_a_body(error: BaseException) -> bool:
    """miniray stopping a body early (Suspended, WorkerExit, a nondeterministic re-run): a
    BaseException of miniray's that is not an Exception, so no learner `except Exception` hides it."""
    return not isinstance(error, Exception) and type(error).__module__.split(".")[0] == "miniray"
