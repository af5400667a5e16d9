"""miniray's own kinds of object, as the judge tells them apart: by identity, through miniray's
public face (`miniray.api_surface` names the handle types, `miniray.body_ends` the exceptions
miniray raises to end a body early), never by a class's name or module."""

from __future__ import annotations

from typing import Any

from miniray.api_surface import ActorClass, ActorHandle, RemoteFunction
from miniray.body_ends import BODY_ENDS


def is_remote_function(obj: Any) -> bool:
    return isinstance(obj, RemoteFunction)


def is_actor_class(obj: Any) -> bool:
    return isinstance(obj, ActorClass)


def is_actor_handle(obj: Any) -> bool:
    return isinstance(obj, ActorHandle)


def ends_a_body(error: BaseException) -> bool:
    """miniray stopping a body early (it blocked, its worker crashed, a nondeterministic re-run,
    its line budget): none is an Exception, so no learner `except Exception` hides it."""
    return isinstance(error, BODY_ENDS)
