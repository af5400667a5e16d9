"""A few classes both sides have (miniray's scheduling strategies), crossing by value.

A record is its class's name and its attributes, each encoded like any value (a placement
group inside a strategy still crosses as a handle). Only the classes listed here are rebuilt, so
a name from the other side cannot make this one import or build anything else.
"""

from __future__ import annotations

import importlib
from typing import Any

from .wire import WireError

RECORDS = frozenset(
    {
        "miniray.strategies:NodeAffinitySchedulingStrategy",
        "miniray.strategies:PlacementGroupSchedulingStrategy",
    }
)


def of(obj: Any) -> tuple[str, dict] | None:
    """(name, attributes) if `obj` is a record, else None."""
    cls = type(obj)
    name = f"{cls.__module__}:{cls.__qualname__}"
    return (name, dict(vars(obj))) if name in RECORDS else None


def make(name: Any, fields: Any, checked: bool = False) -> Any:
    """The record, its fields set as they were. `checked` (the judge, reading the jail's): built
    with the class's own constructor, which checks its arguments as it does in one process."""
    if name not in RECORDS or type(fields) is not dict or not all(type(k) is str for k in fields):
        raise WireError(f"not a record this side knows: {name!r}")
    module, _, qualname = name.partition(":")
    cls = getattr(importlib.import_module(module), qualname)
    if checked:
        try:
            return cls(**fields)
        except (TypeError, ValueError) as e:
            raise WireError(f"a {qualname} that is not one ({e})") from None
    obj = cls.__new__(cls)
    obj.__dict__.update(fields)
    return obj
