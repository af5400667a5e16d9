"""Which of the judge's objects the learner's code may use, and how much of each.

Everything the judge hands to learner code crosses as plain data (a copy) or as a handle. What a
handle allows is decided here, never by the jail:

- object refs and actor handles: what Ray's API does with them (submit, get, wait, kill...);
- a function the exercise passes in (fault01's `submit`, fault04's `do_step`): calling it;
- an object of a class defined in the exercise's checks.py (a `store`, an `api`, `out`): its
  public methods and attributes, the API its docstring gives the learner; never a name starting
  with "_", never setting anything;
- a few miniray records the exercises hand over (a placement group's record, a diagnosis, a
  fencing token, a runtime context, a placement group): the fields and methods listed below;
- anything else: nothing but holding it and passing it back.
"""

from __future__ import annotations

import functools
import types
from typing import Any

import miniray

from . import kinds

# "module:qualname" -> (readable fields, callable methods)
MINIRAY_RECORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # A placement group's record as a queue policy or a rescheduler sees it (fault09, fault11).
    "miniray.placement.group:Group": (
        (
            "pg_id",
            "name",
            "label",
            "bundles",
            "strategy",
            "state",
            "created_at",
            "scheduling_attempt",
            "scheduling_state",
            "highest_retry_delay_ms",
            "scheduling_latency_ms",
            "creation_latency_ms",
            "attempt_started",
            "failed_version",
            "recovering_since",
            "queued_at_attempts",
            "removed_from",
        ),
        ("placed", "unplaced", "row"),
    ),
    "miniray.placement.group:Bundle": (("index", "resources", "selector", "node"), ()),
    "miniray.cluster:Node": (
        ("index", "name", "node_id", "total", "available", "labels", "is_head", "alive", "address"),
        (),
    ),
    "miniray.placement.diagnosis:Diagnosis": (
        ("edges", "cycles", "starved", "spinning", "infeasible", "attempts"),
        ("cycle_strings", "lines"),
    ),
    "miniray.liveness.services:FencingToken": (("lease", "value", "holder", "expires"), ()),
    "miniray.util.placement_group:PlacementGroup": (
        ("id", "bundle_specs", "bundle_count"),
        ("ready", "wait"),
    ),
    "miniray.runtime_context:RuntimeContext": (
        (),
        (
            "get_job_id",
            "get_node_id",
            "get_worker_id",
            "get_task_id",
            "get_actor_id",
            "get_actor_name",
            "get_assigned_resources",
        ),
    ),
}
REF_METHODS = ("task_id",)
CALLABLES = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, functools.partial)


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


class Exposure:
    """The policy for one grading: `checks_module` is the exercise's checks.py module name."""

    def __init__(self, checks_module: str) -> None:
        self.checks_module = checks_module
        self._classes: dict[type, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}

    def surface(self, cls: type) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(fields, methods) learner code may read and call on an instance of `cls`, or None."""
        if cls in self._classes:
            return self._classes[cls]
        found = MINIRAY_RECORDS.get(_name(cls))
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
        if isinstance(obj, miniray.ObjectRef):
            return name in REF_METHODS
        surface = self.surface(type(obj))
        return surface is not None and name in surface[1]


def _text(fn: Any, obj: Any) -> str:
    try:
        text = fn(obj)
    except Exception:
        return f"<{type(obj).__name__}>"
    return text if len(text) <= 300 else text[:297] + "..."
