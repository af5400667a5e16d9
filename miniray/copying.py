"""Values as Ray moves them between processes: serialized once, a fresh copy for every reader.

Ray pickles a task's arguments when `.remote()` is called and every object when it is stored;
each reader (a task given the object as an argument, a `ray.get`) deserializes its own copy.
So a task that mutates its argument changes nothing anyone else sees, and the driver mutating a
list after passing it to `.remote()` does not change what the task gets. miniray runs every
simulated process in one interpreter, so it keeps the same promise by freezing a value into
bytes once (`freeze`) and thawing a new copy for each reader (`Frozen.thaw`).

miniray's own handles (object refs, actor handles, remote functions, simulated services) are
never copied: Ray serializes them as references to the same thing. Their classes say so with
`__miniray_shared__ = True`, and a frozen value keeps them by identity. A value pickle cannot
copy at all (a lambda, a class defined inside a function, a lock) is shared as it is, which is
the one place miniray still lets two readers see one object; Ray would refuse to serialize most
such values (or, through cloudpickle, copy them by value).
"""

from __future__ import annotations

import copyreg
import io
import pickle
import sys
from typing import Any

PROTOCOL = pickle.HIGHEST_PROTOCOL


class _Shared(Exception):
    """Raised by the fast pickler when it meets a handle: take the slow path that keeps it."""


def _refuse(obj: Any) -> Any:
    raise _Shared


class _FastPickler(pickle.Pickler):
    """Plain C-speed pickling; stops at the first handle of a class registered in `_FAST`."""


_FAST: dict = copyreg.dispatch_table.copy()


def _same(self: Any, *memo: Any) -> Any:
    return self


def shared(cls: type) -> type:
    """Class decorator: instances are handles, kept by identity when a value is frozen or a
    worker's memory is copied (`copy.deepcopy` returns them as they are)."""
    cls.__miniray_shared__ = True  # type: ignore[attr-defined]
    cls.__deepcopy__ = _same  # type: ignore[attr-defined]
    cls.__copy__ = _same  # type: ignore[attr-defined]
    _FAST[cls] = _refuse  # exact types only, as a dispatch table matches; subclasses take the slow path
    return cls


class _KeepingPickler(pickle.Pickler):
    """Pickles everything but handles, which it sets aside to hand back as they are."""

    def __init__(self, file: io.BytesIO, kept: list) -> None:
        super().__init__(file, PROTOCOL)
        self.kept = kept

    def persistent_id(self, obj: Any) -> Any:  # called once per object: the slow path only
        if getattr(type(obj), "__miniray_shared__", False) and not isinstance(obj, type):
            self.kept.append(obj)
            return len(self.kept) - 1
        return None


class _KeepingUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, kept: list) -> None:
        super().__init__(file)
        self.kept = kept

    def persistent_load(self, pid: Any) -> Any:
        return self.kept[pid]


class Frozen:
    """One value as Ray would hold it serialized: `thaw()` gives each reader its own copy."""

    __slots__ = ("data", "kept", "value", "size")

    def __init__(self, data: bytes | None, kept: list | None, value: Any, size: int):
        self.data = data  # the pickled value, or None when it could not be pickled
        self.kept = kept  # the handles it holds (refs, actor handles), by identity
        self.value = value  # the value itself, only when it could not be pickled (shared)
        self.size = size  # bytes, as the object store counts it

    def thaw(self) -> Any:
        data = self.data
        if data is None:
            return self.value
        if self.kept is None:
            return pickle.loads(data)
        return _KeepingUnpickler(io.BytesIO(data), self.kept).load()

    def __repr__(self) -> str:
        return f"<Frozen {self.size} bytes>"


def _size(value: Any, pickled: int) -> int:
    nbytes = getattr(value, "nbytes", None)  # arrays and sim.Blob say how big they are
    return int(nbytes) if isinstance(nbytes, int) else pickled


# Values no reader can change: kept as they are (their pickled size is still what a store counts).
SCALARS = frozenset({type(None), bool, int, float, complex, str, bytes})


def scalar_size(value: Any) -> int:
    """The bytes a number, string or None takes serialized (what a store counts)."""
    return len(pickle.dumps(value, PROTOCOL))


def freeze(value: Any) -> Frozen:
    """Serialize `value` once, as Ray does when it stores an object or a task's argument."""
    if type(value) in SCALARS:  # nothing to copy: only its size is needed
        return Frozen(None, None, value, scalar_size(value))
    buf = io.BytesIO()
    fast = _FastPickler(buf, PROTOCOL)
    fast.dispatch_table = _FAST
    try:
        fast.dump(value)
        data = buf.getvalue()
        return Frozen(data, None, None, _size(value, len(data)))
    except _Shared:
        pass
    except Exception:  # a subclass of a handle, or something pickle refuses: try keeping handles
        pass
    buf = io.BytesIO()
    kept: list = []
    try:
        _KeepingPickler(buf, kept).dump(value)
    except Exception:  # lambdas, local classes, locks: shared rather than fail like a copy
        return Frozen(None, None, value, _size(value, sys.getsizeof(value)))
    data = buf.getvalue()
    return Frozen(data, kept, None, _size(value, len(data)))


def thaw(value: Any) -> Any:
    """A fresh copy if `value` is frozen; anything else as it is."""
    return value.thaw() if type(value) is Frozen else value
