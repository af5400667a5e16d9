"""The jail's requests the judge answers: Ray's API, the exercise's objects, the clock.

Each runs in whatever context the judge is in when the request comes: the driver, or the task
body the judge asked the jail to run, so a `ray.get` there blocks (and is replayed) exactly as in
one process. What an exercise object allows is `exposure`'s to say; a function the exercise
handed over may be called; nothing else of the judge's can be reached.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import miniray
from miniray import sim

from . import client, kinds, proxies
from .exposure import CALLABLES, Exposure

# The judge's own sleep, kill and exit (taken before miniray may stand in for them): never called
# on the jail's behalf.
REAL = {"sleep": time.sleep, "kill": getattr(os, "kill", None), "_exit": os._exit}


def _api_table() -> dict[str, Any]:
    table = {name: getattr(miniray, name) for name in client.API}
    table["actor.exit_actor"] = miniray.actor.exit_actor
    table.update({f"util.{name}": getattr(miniray.util, name) for name in client.UTIL_API})
    return table


class Served:
    """The request handlers; `judge.Bridge` is one."""

    def __init__(self, exposure: Exposure) -> None:
        self.exposure = exposure
        self.api = _api_table()
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

    def _submit(self, fn: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_remote_function(fn):
            raise TypeError(f"{fn!r} is not a remote function")
        return fn.remote(*args, **kwargs)

    def _submit_options(self, fn: Any, opts: dict, args: list, kwargs: dict) -> Any:
        if not kinds.is_remote_function(fn) or type(opts) is not dict:
            raise TypeError(f"{fn!r} is not a remote function")
        return fn.options(**opts).remote(*args, **kwargs)

    def _actor_new(self, cls: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_actor_class(cls):
            raise TypeError(f"{cls!r} is not an actor class")
        return cls.remote(*args, **kwargs)

    def _actor_call(self, handle: Any, name: Any, opts: Any, args: list, kwargs: dict) -> Any:
        if not kinds.is_actor_handle(handle) or type(name) is not str or type(opts) is not dict:
            raise TypeError(f"{handle!r} is not an actor handle")
        method = getattr(handle, name)
        return (method.options(**opts) if opts else method).remote(*args, **kwargs)

    def _api(self, name: Any, args: list, kwargs: dict) -> Any:
        fn = self.api.get(name) if type(name) is str else None
        if fn is None:
            raise AttributeError(f"miniray has no {name!r} for graded code")
        return fn(*args, **kwargs)

    def _local(self, name: Any, args: list) -> tuple[bool, Any]:
        """The clock and pids: miniray's while a cluster is up, else the jail's own (never the
        judge's real sleep, kill or exit on the jail's behalf)."""
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
        if not isinstance(fn, CALLABLES) or proxies.ref_of(fn) is not None:
            raise TypeError(f"{fn!r} is not a function the exercise handed over")
        return fn(*args, **kwargs)

    def _callmethod(self, obj: Any, name: Any, args: list, kwargs: dict) -> Any:
        if type(name) is not str or not self.exposure.may_call(obj, name):
            raise AttributeError(f"{type(obj).__name__!r} object has no method {name!r} for learner code")
        return getattr(obj, name)(*args, **kwargs)

    def _getattr(self, obj: Any, name: Any) -> Any:
        if type(name) is not str or not self.exposure.may_read(obj, name):
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r} for learner code")
        return getattr(obj, name)
