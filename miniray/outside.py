"""What a body reads of a service outside the cluster is a call, journaled like any other.

A body that is stopped (a frozen node, a blocked `get`) is run again from its start, its calls
answered from its journal (miniray/execution.py). A read of a service's data (`ledger.lines`)
made between two calls was not journaled, so the re-run read the service as it is now, not as
it was: a zombie that checked an empty ledger before its node froze checked again after, saw the
retry's line and wrote nothing, where Ray's frozen process wakes with its old answer and writes
a second line. Reading a `sim.external` object's data attribute from a body's own code (not the
service's, not the grader's) is therefore one interaction, `read Ledger.lines`, whose answer is
a copy of the value then, as a reply from a remote service would be.

Methods, private names, handles to other shared objects and the service's own code reading
itself are not such reads: calling a method is the service's own call, journaled where it
reaches the cluster.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

from . import context


def read_attribute(obj: Any, name: str, learner: bool = False) -> Any:
    """`obj.name` for a class marked external: journaled when a body's own code reads data.
    `learner`: the read is the learner's whoever makes it (the judge reading for jailed code)."""
    value = object.__getattribute__(obj, name)
    if name.startswith("_") or callable(value) or getattr(type(value), "__miniray_shared__", False):
        return value
    body = context._body()
    if body is None or body.calling:
        return value
    if not learner:
        frame = sys._getframe(1)
        if frame.f_locals.get("self") is obj:
            return value  # the service's own code (a method, or a closure in one) reading itself
        caller = frame.f_globals.get("__name__", "")
        library, prefixes = body.rt.library
        if caller in library or caller.startswith(prefixes):
            return value  # a grader's or miniray's code reading its service
    return body.interact(lambda: copy.deepcopy(value), f"read {type(obj).__name__}.{name}")
