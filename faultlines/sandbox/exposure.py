"""Which of the judge's objects the learner's code may use, and how much of each.

Everything the judge hands to learner code crosses as plain data (a copy) or as a handle. What a
handle allows is decided here, never by the jail:

- object refs and actor handles: what Ray's API does with them (submit, get, wait, kill...);
- a function the exercise passes in (fault01's `submit`, fault04's `do_step`): calling it;
- an object of a class defined in the exercise's checks.py (a `store`, an `api`, `out`): its
  public methods and attributes, the API its docstring gives the learner; never a name starting
  with "_", never setting anything;
- miniray's records the exercises hand over (a placement group's record, a diagnosis, a
  fencing token, a runtime context, a placement group): the fields and methods miniray's table
  of what a learner may ask (`miniray.api_surface.RECORDS`) lists, with plain arguments;
- anything else: nothing but holding it and passing it back.

miniray's table and the exercise's services make one policy: a later record or service extends
one of the two, and nothing outside them is read or called.
"""

from __future__ import annotations

import functools
import types
from typing import Any

import miniray
from miniray.api_surface import ANY, PLAIN, RECORDS, Accepts

from . import kinds

CALLABLES = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, functools.partial)


class Exposure:
    """The policy for one grading: `checks_module` is the exercise's checks.py module name."""

    def __init__(self, checks_module: str) -> None:
        self.checks_module = checks_module
        self._classes: dict[type, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}

    def surface(self, cls: type) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(fields, methods) learner code may read and call on an instance of `cls`, or None."""
        if cls in self._classes:
            return self._classes[cls]
        record = RECORDS.get(cls)
        found = (record.fields, record.methods) if record is not None else None
        if found is None and cls.__module__ == self.checks_module:
            fields: list[str] = []
            methods: list[str] = []
            for name in dir(cls):
                if name.startswith("_"):
                    continue
                member = getattr(cls, name, None)
                (fields if isinstance(member, property) else methods if callable(member) else fields).append(
                    name
                )
            found = (tuple(fields), tuple(methods))
        self._classes[cls] = found
        return found

    def describe(self, obj: Any) -> dict:
        """What the jail's stand-in for `obj` needs to know (`meta`)."""
        if isinstance(obj, miniray.ObjectRef):
            return {"k": "ref", "hex": obj.hex()}
        if kinds.is_actor_handle(obj):
            return {"k": "actor", "repr": repr(obj)}
        if kinds.is_remote_function(obj):
            return {
                "k": "rf",
                "name": str(getattr(obj, "__name__", "task")),
                "repr": f"<remote function {getattr(obj, '__name__', 'task')}>",
            }
        if isinstance(obj, CALLABLES):
            name = getattr(obj, "__name__", "function")
            return {"k": "fn", "name": str(name), "repr": f"<function {name}>"}
        surface = self.surface(type(obj))
        meta = {"type": type(obj).__name__, "repr": _text(repr, obj), "str": _text(str, obj)}
        if surface is None:
            return {"k": "opaque", **meta}
        fields, methods = surface
        own = [k for k in getattr(obj, "__dict__", {}) if not k.startswith("_")]
        if type(obj).__module__ == self.checks_module:
            fields = tuple(sorted({*fields, *own} - set(methods)))
        return {"k": "obj", **meta, "fields": list(fields), "methods": list(methods)}

    def may_read(self, obj: Any, name: str) -> bool:
        if name.startswith("_"):
            return False
        surface = self.surface(type(obj))
        if surface is None:
            return False
        if type(obj).__module__ == self.checks_module:
            return name not in surface[1] and (name in surface[0] or name in getattr(obj, "__dict__", {}))
        return name in surface[0]

    def may_call(self, obj: Any, name: str) -> bool:
        if name.startswith("_"):
            return False
        surface = self.surface(type(obj))
        return surface is not None and name in surface[1]

    def arguments(self, obj: Any) -> Accepts:
        """What a method's arguments may hold: any value for the exercise's own services (as in
        one process), plain data for miniray's records."""
        return ANY if type(obj).__module__ == self.checks_module else PLAIN


def _text(fn: Any, obj: Any) -> str:
    try:
        text = fn(obj)
    except Exception:
        return f"<{type(obj).__name__}>"
    return text if len(text) <= 300 else text[:297] + "..."
