"""The jail's requests the judge answers: exactly what a learner's program may do, nothing else.

The table is miniray's (`miniray.api_surface`): Ray's calls, each with the arguments it takes and
what each may hold; the clock and pids miniray stands in for; the fields and methods of its
records. The exercise adds its own services (exposure.py) and the functions it hands over. A
request outside them is refused, whatever its name; an argument that holds what its parameter
does not take is refused in Python's words; nothing the jail named by a name is ever called.

Each runs in whatever context the judge is in when the request comes: the driver, or the task
body the judge asked the jail to run, so a `ray.get` there blocks (and is replayed) exactly as in
one process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import miniray
from miniray import sim
from miniray.api_surface import CLOCK, OPERATIONS, OPTIONS, PLAIN, Accepts

from . import kinds, proxies
from .exposure import CALLABLES, Exposure

# The judge's own sleep, kill and exit (taken before miniray may stand in for them): never called
# on the jail's behalf.
REAL = {"sleep": time.sleep, "kill": getattr(os, "kill", None), "_exit": os._exit}


def _admit(accepts: Accepts, what: str, *values: Any) -> None:
    for value in values:
        if not accepts.admits(value):
            raise TypeError(f"{what} takes {accepts.what}, not {type(value).__name__}")


class Served:
    """The request handlers; `judge.Bridge` is one."""

    def __init__(self, exposure: Exposure) -> None:
        self.exposure = exposure
        self.ops: dict[str, Callable[..., Any]] = {
            "submit": self._submit,
            "submit.options": self._submit_options,
            "actor.new": self._actor_new,
            "actor.call": self._actor_call,
            "api": self._api,
            "local": self._local,
            "call": self._call,
            "callmethod": self._callmethod,
            "getattr": self._getattr,
        }

    def handed_over(self, obj: Any) -> bool:
        """Whether `obj` is one of the judge's objects the jail was given (by handle)."""
        raise NotImplementedError  # judge.Bridge knows its exports

    def _submit(self, fn: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_remote_function(fn) or type(args) is not list or type(kwargs) is not dict:
            raise TypeError(f"{fn!r} is not a remote function")
        return fn.remote(*args, **kwargs)

    def _submit_options(self, fn: Any, opts: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_remote_function(fn) or type(opts) is not dict:
            raise TypeError(f"{fn!r} is not a remote function")
        _admit(OPTIONS, ".options()", opts)
        return fn.options(**opts).remote(*args, **kwargs)

    def _actor_new(self, cls: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_actor_class(cls):
            raise TypeError(f"{cls!r} is not an actor class")
        return cls.remote(*args, **kwargs)

    def _actor_call(self, handle: Any, name: Any, opts: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_actor_handle(handle) or type(name) is not str or type(opts) is not dict:
            raise TypeError(f"{handle!r} is not an actor handle")
        _admit(OPTIONS, ".options()", opts)
        method = getattr(handle, name)
        return (method.options(**opts) if opts else method).remote(*args, **kwargs)

    def _api(self, name: Any, args: Any, kwargs: Any) -> Any:
        op = OPERATIONS.get(name) if type(name) is str else None
        if op is None or type(args) is not list or type(kwargs) is not dict:
            raise AttributeError(f"miniray has no {name!r} for graded code")
        return op.fn(*args, **op.bind(args, kwargs))

    def _local(self, name: Any, args: Any) -> tuple[bool, Any]:
        """The clock and pids: miniray's while a cluster is up, else the jail's own (never the
        judge's real sleep, kill or exit on the jail's behalf)."""
        most = CLOCK.get(name) if type(name) is str else None
        if most is None or type(args) is not list or len(args) > most:
            raise AttributeError(f"{name!r} is not a clock or process call miniray stands in for")
        _admit(PLAIN, str(name), *args)
        if not miniray.is_initialized():
            return False, None
        in_body = sim.current_attempt() is not None
        if name in ("time.sleep", "time.time", "time.monotonic", "time.perf_counter"):
            fn = getattr(time, name[5:])
            if name == "time.sleep" and fn is REAL["sleep"]:
                return False, None
            return True, fn(*args)
        if name == "os.getpid" and in_body:
            return True, os.getpid()
        if name == "os.kill" and args and type(args[0]) is int and os.kill is not REAL["kill"]:
            from miniray.util.state import list_workers

            if args[0] in {w["pid"] for w in list_workers() if w["kind"] != "driver"}:
                os.kill(*args)
                return True, None
        if name == "os._exit" and in_body and os._exit is not REAL["_exit"]:
            os._exit(*args)  # miniray's: this body's worker exits (WorkerExit)
        return False, None

    def _call(self, fn: Any, args: list, kwargs: dict) -> Any:
        """A function the exercise handed over (fault01's `submit`): only one the jail was given
        by handle, never one it named."""
        if not isinstance(fn, CALLABLES) or proxies.ref_of(fn) is not None or not self.handed_over(fn):
            raise TypeError(f"{fn!r} is not a function the exercise handed over")
        return fn(*args, **kwargs)

    def _callmethod(self, obj: Any, name: Any, args: list, kwargs: dict) -> Any:
        if type(name) is not str or not self.exposure.may_call(obj, name):
            raise AttributeError(f"{type(obj).__name__!r} object has no method {name!r} for learner code")
        if type(args) is not list or type(kwargs) is not dict:
            raise TypeError(f"{name}() takes a list of arguments")
        _admit(self.exposure.arguments(obj), f"{name}()", *args, *kwargs.values())
        return getattr(obj, name)(*args, **kwargs)

    def _getattr(self, obj: Any, name: Any) -> Any:
        if type(name) is not str or not self.exposure.may_read(obj, name):
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r} for learner code")
        # The learner's read, as in one process: journaled in a body (miniray/outside.py).
        return sim.read_external(obj, name)
