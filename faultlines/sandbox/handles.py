"""The jail's end of the link: what each side holds, and stand-ins for the judge's objects.

Nothing the judge owns is ever in the jail. An object ref, an actor handle, the exercise's
`store` or `api` arrives as a handle number with a little description (`meta`), and the learner's
code gets a stand-in: an `ObjectRef` whose `hex()` is known here, an actor handle whose
`.method.remote()` asks the judge to submit the call, an object whose methods (the ones the
exercise exposes, see judge-side exposure.py) ask the judge to run them. The same handle always
gives the same stand-in while one lives, and when the last one dies the judge is told, with the
next message, that it may let the object go (so an ObjectRef the learner drops is freed in the
simulation as it would be in the learner's own process).

The judge's exceptions arrive as their class, message and attributes and are rebuilt here as real
exceptions: builtins and miniray's own classes as themselves (`except WorkerCrashedError` works),
anything else as a class of the same name on the nearest builtin base. Raised back unchanged, they
go back as the judge's own object.
"""

from __future__ import annotations

import importlib
import io
import sys
import time
import traceback
import types
import weakref
from collections.abc import Callable
from typing import Any

from . import errors, records, wire
from .channel import Channel

_CPU = time.process_time  # taken before the learner's code could stand in for it
OUT_PER_MESSAGE = 64 * 1024  # characters of learner output sent with one message
JUDGE_HANDLE = "_fl_handle"  # on an exception rebuilt from the judge's: the judge's handle


class Unwind(BaseException):
    """The judge unwound the body this code runs in (it blocked, or its worker crashed)."""

    def __init__(self, token: int) -> None:
        super().__init__(f"unwound by the simulation ({token})")
        self.token = token


class Output(io.TextIOBase):
    """sys.stdout and sys.stderr in the jail: kept until the next message, at most OUT_PER_MESSAGE."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = OUT_PER_MESSAGE - self.size
        if len(text) > room:
            self.dropped += len(text) - max(room, 0)
            text = text[: max(room, 0)]
        if text:
            self.parts.append(text)
            self.size += len(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[{self.dropped} characters of output dropped]\n"
        self.parts, self.size, self.dropped = [], 0, 0
        return text


class Link:
    """The tables and the conversation, as the jail sees them."""

    def __init__(
        self,
        channel: Channel,
        describe: Callable[[Link, Any], dict],
        standins: dict[str, type[StandIn]],
    ) -> None:
        self.channel = channel
        # The learner's objects are described, and the judge's Ray-shaped objects stood in for, by
        # the jail's `miniray` (client.py), which imports this module: it hands them in here.
        self.describe = describe
        self.standin_types: dict[str, type[StandIn]] = {"fn": JudgeCallable, "obj": JudgeObject, **standins}
        self.exports: dict[int, Any] = {}  # handle -> this side's object the judge may name
        self._export_ids: dict[int, int] = {}  # id(object) -> handle
        self._next = 0
        self.standins: dict[int, weakref.ref] = {}  # judge handle -> its live stand-in
        self._alive: dict[int, int] = {}  # judge handle -> stand-ins alive
        self.out = Output()
        self.counter: Any = None  # the run's statement counter, reported with each message
        self.processes: Any = None  # the run's worker memories (processes.Processes)
        self.namespace: dict[str, Any] = {}  # the run's module: what a name from the judge means
        self._site = 0  # the learner's line of the request being sent
        channel.outgoing = self._header

    # -- the conversation ------------------------------------------------------------------------
    def request(self, op: str, *payload: Any) -> Any:
        self._site = self._learner_line()
        kind, body = self.channel.call(op, self.encode(list(payload)))
        if kind == "a":
            return self.decode(body)
        if kind == "u":
            raise Unwind(int(body))
        raise self.decode(body)

    def _header(self) -> dict:
        hdr: dict = {}
        text = self.out.take()
        if text:
            hdr["out"] = text
        released = [h for h, n in self._alive.items() if n <= 0]
        if released:
            for h in released:
                del self._alive[h]
                self.standins.pop(h, None)
            hdr["rel"] = released
        if self.counter is not None:
            hdr["n"] = self.counter.lines
        if self._site:
            hdr["site"], self._site = self._site, 0
        hdr["cpu"] = round(_CPU(), 2)  # what the judge knows of this process's CPU if it is killed
        return hdr

    def _learner_line(self) -> int:
        """The line of the submission that made the request (0: none did), for the judge's journal
        (a failure's report names the learner's line of each step)."""
        filename = self.namespace.get("__file__")
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename == filename:
                return frame.f_lineno
            frame = frame.f_back  # type: ignore[assignment]
        return 0

    # -- this side's objects ---------------------------------------------------------------------
    def export_id(self, obj: Any) -> tuple[int, bool]:
        """(handle, new?) for one of this side's objects, kept alive until the run ends."""
        h = self._export_ids.get(id(obj))
        if h is not None and self.exports.get(h) is obj:
            return h, False
        self._next += 1
        h = self._next
        self.exports[h] = obj
        self._export_ids[id(obj)] = h
        return h, True

    def clear(self) -> None:
        """A new run: nothing of the last one is named again (handles are never reused)."""
        self.exports.clear()
        self._export_ids.clear()

    # -- the judge's objects ---------------------------------------------------------------------
    def standin(self, h: int, meta: dict) -> Any:
        ref = self.standins.get(h)
        obj = ref() if ref is not None else None
        if obj is None:
            obj = self.standin_types.get(str(meta.get("k")), Opaque)(self, h, meta)
            self.standins[h] = weakref.ref(obj)
        return obj

    def born(self, h: int) -> None:
        self._alive[h] = self._alive.get(h, 0) + 1

    def died(self, h: int) -> None:
        if h in self._alive:
            self._alive[h] -= 1

    # -- values ----------------------------------------------------------------------------------
    def encode(self, value: Any) -> Any:
        return wire.encode(value, self._export)

    def decode(self, value: Any) -> Any:
        return wire.decode(value, self._resolve)

    def _export(self, obj: Any) -> list:
        h = getattr(obj, "_fl_handle", None)
        if type(h) is int and isinstance(obj, StandIn):
            return ["J", h]
        if type(obj).__name__ == "Named" and type(obj).__module__ == "faultlines.sandbox.inside":
            if isinstance(obj.value, types.ModuleType):
                return ["M", str(obj.value.__name__)]
            return ["G", obj.name, self.describe(self, obj.value)]
        if isinstance(obj, BaseException):
            return self._exception(obj)
        record = records.of(obj)
        if record is not None:
            return ["R", record[0], self.encode(record[1])]
        if type(obj).__name__ == "module" and hasattr(obj, "__name__"):
            return ["M", str(obj.__name__)]
        h, _ = self.export_id(obj)
        return ["S", h, self.describe(self, obj)]

    def _resolve(self, value: list, depth: int) -> Any:
        tag = value[0]
        if tag == "S" and len(value) == 2 and type(value[1]) is int:
            obj = self.exports.get(value[1])
            if obj is None and value[1] not in self.exports:
                raise wire.WireError(f"no object {value[1]} here")
            return obj
        if tag == "G" and len(value) == 2 and type(value[1]) is str:
            if value[1] not in self.namespace:
                raise wire.WireError(f"no {value[1]!r} in the module")
            return self.namespace[value[1]]
        if tag == "J" and len(value) == 3 and type(value[1]) is int and type(value[2]) is dict:
            return self.standin(value[1], value[2])
        if tag == "E":
            return self._rebuild(value, depth)
        if tag == "R":
            return records.make(value[1], wire.decode(value[2], self._resolve, depth))
        raise wire.WireError(f"unknown tag {tag!r}")

    # -- exceptions ------------------------------------------------------------------------------
    def _exception(self, e: BaseException) -> list:
        known = getattr(e, "__dict__", {}).get(JUDGE_HANDLE)
        if type(known) is Held:
            return ["J", known.h]
        return errors.write(e, self.encode, self._exception, traceback=remote_traceback(e))

    def _rebuild(self, value: list, depth: int) -> BaseException:
        parts = errors.read(value)
        cause = None
        if parts.cause is not None:
            cause = wire.decode(parts.cause[1], self._resolve, depth + 1)
        cls: Any = exception_class(parts, cause)
        e: BaseException = cls.__new__(cls)
        try:
            e.args = tuple(self.decode(parts.args)) if parts.args is not None else (parts.text,)
        except Exception:
            pass
        attrs = wire.decode(parts.attrs, self._resolve, depth + 1)
        if type(attrs) is dict:
            for k, v in attrs.items():
                if type(k) is str:
                    e.__dict__[k] = v
        if parts.cause is not None and isinstance(cause, BaseException):
            if parts.cause[0] == "a":
                e.__dict__["cause"] = cause
            else:
                e.__cause__ = cause
        if parts.handle is not None:  # raised back unchanged, it goes back as the judge's own
            e.__dict__[JUDGE_HANDLE] = Held(self, parts.handle)
        return e


def remote_traceback(e: BaseException) -> str:
    """The learner's traceback as miniray shows a task's: from the learner's first frame, and
    without the jail's own frames (which in-process would be miniray's)."""
    package = __file__.rsplit("/", 1)[0]
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename.startswith(package):
        tb = tb.tb_next
    try:
        lines = traceback.format_exception(type(e), e, tb)
    except Exception:
        return f"{type(e).__name__}: {errors.safe_str(e)}\n"
    if lines and lines[0].startswith("Traceback"):
        lines = lines[1:]
    return "".join(line for line in lines if package not in line.split("\n", 1)[0])


def exception_class(parts: errors.Parts, cause: Any) -> type:
    """Builtins and miniray's classes as themselves (the jail has miniray's exception classes)."""
    found = errors.builtin(parts.qualname) if parts.module == "builtins" else None
    if found is not None:
        return found
    if parts.module.startswith("miniray."):
        try:
            exceptions = importlib.import_module("miniray.exceptions")
            if parts.qualname.startswith("RayTaskError(") and isinstance(cause, BaseException):
                return exceptions._dual_class(type(cause))
            cls = getattr(importlib.import_module(parts.module), parts.qualname, None)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                return cls
        except Exception:
            pass
    return errors.stand_in(parts.module, parts.qualname, parts.bases, _STAND_INS)


_STAND_INS: dict[tuple, type] = {}  # the jail's, for the judge's exceptions it names


class Held:
    """Rides on an exception rebuilt from the judge's (which takes no weak reference): when the
    exception goes, so does this, and the judge may let its own go (and what its frames hold)."""

    __slots__ = ("link", "h")

    def __init__(self, link: Link, h: int) -> None:
        self.link, self.h = link, h
        link.born(h)

    def __del__(self) -> None:
        self.link.died(self.h)


# -- stand-ins ---------------------------------------------------------------------------------------
class StandIn:
    """A judge object, named by its handle. Its methods ask the judge; nothing else is here.
    A handle is shared by every simulated worker process, never copied (as miniray's are)."""

    __miniray_shared__ = True
    _fl_handle: int
    _fl_link: Link
    _fl_meta: dict

    def __init__(self, link: Link, h: int, meta: dict) -> None:
        object.__setattr__(self, "_fl_link", link)
        object.__setattr__(self, "_fl_handle", h)
        object.__setattr__(self, "_fl_meta", meta)
        link.born(h)

    def __del__(self) -> None:
        try:
            self._fl_link.died(self._fl_handle)
        except Exception:
            pass

    def __deepcopy__(self, memo: dict) -> StandIn:
        return self

    def __copy__(self) -> StandIn:
        return self

    def __repr__(self) -> str:
        return str(self._fl_meta.get("repr", f"<{self._fl_meta.get('type', 'object')}>"))

    def __str__(self) -> str:
        return str(self._fl_meta.get("str", self.__repr__()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self!r} is the grader's object: its attributes cannot be set")


class JudgeObject(StandIn):
    """An object the exercise gives the learner: its exposed methods and attributes, forwarded."""

    def __getattr__(self, name: str) -> Any:
        meta = self._fl_meta
        if name in meta.get("methods", ()):
            return JudgeMethod(self, name)
        if name.startswith("_") or name not in meta.get("fields", ()):
            raise AttributeError(f"{meta.get('type', 'object')!r} object has no attribute {name!r}")
        return self._fl_link.request("getattr", self, name)


class JudgeMethod:
    def __init__(self, owner: JudgeObject, name: str) -> None:
        self.owner, self.name = owner, name
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.owner._fl_link.request("callmethod", self.owner, self.name, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<bound method {self.name} of {self.owner!r}>"


class JudgeCallable(StandIn):
    """A function the exercise hands the learner (e.g. fault01's submit): calling it asks the judge."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fl_link.request("call", self, list(args), kwargs)

    @property
    def __name__(self) -> str:
        return str(self._fl_meta.get("name", "function"))


class Opaque(StandIn):
    """A judge object the learner may hold and pass back, and do nothing else with."""


def install_output(link: Link) -> None:
    sys.stdout = link.out
    sys.stderr = link.out
