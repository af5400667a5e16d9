"""Exceptions across the boundary: class name, message, arguments and traceback text, never the
object itself. Both sides write and read the same array:

    ["E", handle, module, qualname, builtin bases, args, attributes, text, traceback, cause]

`handle` is set by the judge (a jail raising the judge's exception back sends the handle
instead, so the judge gets its own object again); `attributes` are the judge's (a RayTaskError's
pid, a NodeDiedError's message), the jail sends none; `traceback` is the learner's frames as
text, the jail's only; `cause` is ["a", exception] for the `cause` attribute Ray's task errors
carry, or ["c", exception] for `raise ... from`.

Each side decides what class to rebuild (the judge only builtins, a short list of its own and
stand-ins; see judge.py), with `stand_in` for the rest: a class of the same name on the nearest
builtin base, so `except OSError` still catches what was an OSError.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .wire import WireError


@dataclass
class Parts:
    handle: int | None
    module: str
    qualname: str
    bases: list[str]
    args: Any  # encoded, or None
    attrs: Any  # encoded dict
    text: str
    traceback: str
    cause: tuple[str, list] | None  # ("a" | "c", encoded exception)


def safe_str(e: BaseException) -> str:
    try:
        return str(e)
    except Exception:
        return f"<{type(e).__name__}: str() failed>"


def write(
    e: BaseException,
    encode: Callable[[Any], Any],
    nested: Callable[[BaseException], list],
    handle: int | None = None,
    attrs: dict | None = None,
    traceback: str = "",
) -> list:
    cls = type(e)
    bases = [c.__name__ for c in cls.__mro__ if c.__module__ == "builtins"]
    try:
        args = encode(list(e.args))
    except Exception:
        args = None
    cause: list | None = None
    attribute = getattr(e, "__dict__", {}).get("cause")
    if isinstance(attribute, BaseException) and attribute is not e:
        cause = ["a", nested(attribute)]
    elif isinstance(e.__cause__, BaseException) and e.__cause__ is not e:
        cause = ["c", nested(e.__cause__)]
    return [
        "E",
        handle,
        str(cls.__module__),
        str(cls.__qualname__),
        bases,
        args,
        encode(attrs or {}),
        safe_str(e),
        traceback,
        cause,
    ]


def read(value: list) -> Parts:
    if len(value) != 10:
        raise WireError("a malformed exception")
    _, handle, module, qualname, bases, args, attrs, text, tb, cause = value
    if handle is not None and type(handle) is not int:
        raise WireError("a malformed exception handle")
    if not all(type(x) is str for x in (module, qualname, text, tb)) or type(bases) is not list:
        raise WireError("a malformed exception")
    if cause is not None and not (
        type(cause) is list and len(cause) == 2 and cause[0] in ("a", "c") and type(cause[1]) is list
    ):
        raise WireError("a malformed exception cause")
    pair = (str(cause[0]), cause[1]) if cause is not None else None
    return Parts(handle, module, qualname, [str(b) for b in bases], args, attrs, text, tb, pair)


NAME_CHARS = 200  # of a stand-in's module and class name: the rest is the other side's to keep


def stand_in(module: str, qualname: str, bases: list[str], cache: dict[tuple, type], most: int = 0) -> type:
    """A class named like the original on its nearest builtin Exception base, kept in `cache`;
    `most` (the judge: the names are the jail's): past that many classes, a WireError."""
    base: type = Exception
    for name in bases:
        found = getattr(builtins, name, None)
        if isinstance(found, type) and issubclass(found, Exception):
            base = found
            break
    module, qualname = module[:NAME_CHARS], qualname[:NAME_CHARS]
    key = (module, qualname, base)
    cls = cache.get(key)
    if cls is None:
        if most and len(cache) >= most:
            raise WireError(f"more than {most} kinds of exception in one grading")
        name = qualname.rsplit(".", 1)[-1] or "Error"
        cls = cache[key] = type(name, (base,), {"__module__": module, "__qualname__": qualname})
    return cls


def builtin(qualname: str) -> type | None:
    cls = getattr(builtins, qualname, None)
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else None
