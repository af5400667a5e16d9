"""The `miniray` the learner's code imports inside the jail: Ray's API, every call forwarded.

There is no simulation in the jail. `@ray.remote` here only wraps the learner's function or
class; `.remote()`, `ray.get`, `ray.put`, `ray.wait`, `ray.kill` and the rest ask the judge, which
runs them on the real miniray, in the same context as the learner's code (the driver, or the task
body the judge asked the jail to run), so a `ray.get` inside a body blocks and replays exactly as
it does in one process. `time.sleep`, `time.time` and the pid functions go the same way while the
judge has a cluster up, and are the real ones otherwise.

The module is built fresh (`build`) and installed as `sys.modules["miniray"]`; its `__path__`
is the real miniray folder, so `miniray.exceptions` and `miniray.util.scheduling_strategies`
are miniray's own classes. Options are checked with miniray's own `options.validate`, so a wrong
option fails at the decorator, with Ray's words, as it does in one process.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys
import time
import types
from typing import Any

from .handles import Link, StandIn

LINK: Link | None = None  # set by inside.main
BUILTIN_ACTOR_METHODS = ("__ray_ready__", "__ray_terminate__")


def link() -> Link:
    assert LINK is not None, "the jail's link is not up"
    return LINK


def _validate(opts: dict, kind: str) -> dict:
    from miniray.options import validate  # miniray's own checks: pure, no simulation behind them

    return validate(dict(opts), kind)


# -- the learner's remote functions and actor classes -------------------------------------------------
class _Handle:
    """Ray's remote functions and actor classes are handles: every worker process shares one."""

    __miniray_shared__ = True

    def __deepcopy__(self, memo: dict) -> Any:
        return self

    def __copy__(self) -> Any:
        return self


class RemoteFunction(_Handle):
    def __init__(self, fn: Any, opts: dict) -> None:
        self._function = fn
        self._opts = _validate(opts, "task")
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = f"{self._function.__module__}.{self._function.__name__}"
        raise TypeError(
            f"Remote functions cannot be called directly. Instead of running '{name}()', try '{name}.remote()'."
        )

    def options(self, **opts: Any) -> RemoteFunction:
        clone = RemoteFunction.__new__(RemoteFunction)
        clone._function, clone._opts = self._function, {**self._opts, **_validate(opts, "task")}
        functools.update_wrapper(clone, self._function)
        return clone

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        link().processes.export(self._function)  # its first .remote() in the run exports it
        return link().request("submit", self, list(args), kwargs)


class ActorClass(_Handle):
    def __init__(self, cls: type, opts: dict) -> None:
        self._cls = cls
        self._opts = _validate(opts, "actor")
        self.__name__ = cls.__name__
        self.__qualname__ = cls.__qualname__
        self.__doc__ = cls.__doc__
        self.__module__ = cls.__module__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"Actors cannot be instantiated directly. Instead of '{self.__name__}()', use '{self.__name__}.remote()'."
        )

    def options(self, **opts: Any) -> ActorClass:
        clone = ActorClass.__new__(ActorClass)
        clone.__dict__.update(self.__dict__)
        clone._opts = {**self._opts, **_validate(opts, "actor")}
        return clone

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        link().processes.export(self._cls)
        return link().request("actor.new", self, list(args), kwargs)


def remote(*args: Any, **opts: Any) -> Any:
    """`@ray.remote` or `@ray.remote(num_cpus=..., max_retries=...)` on a function or class."""
    if len(args) == 1 and not opts and callable(args[0]):
        return _make(args[0], {})
    if args:
        raise TypeError(
            "The @miniray.remote decorator takes keyword arguments only, e.g. @miniray.remote(num_cpus=1)."
        )
    return lambda target: _make(target, opts)


def _make(target: Any, opts: dict) -> Any:
    if isinstance(target, type):
        return ActorClass(target, opts)
    if callable(target):
        return RemoteFunction(target, opts)
    raise TypeError(f"@miniray.remote decorates a function or a class, not {type(target).__name__}.")


def method(*args: Any, **opts: Any) -> Any:
    if args:
        raise TypeError(
            "Use @miniray.method(...) with keyword arguments, e.g. @miniray.method(num_returns=2)."
        )
    _validate(opts, "method")

    def decorate(fn: Any) -> Any:
        fn.__miniray_method_options__ = opts
        return fn

    return decorate


# -- stand-ins for the judge's Ray objects ------------------------------------------------------------
class ObjectRef(StandIn):
    def hex(self) -> str:
        return str(self._fl_meta.get("hex", ""))

    def binary(self) -> bytes:
        return bytes.fromhex(self.hex())

    def task_id(self) -> Any:
        return link().request("callmethod", self, "task_id", [], {})

    def __repr__(self) -> str:
        return f"ObjectRef({self.hex()})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ObjectRef) and other.hex() == self.hex()

    def __hash__(self) -> int:
        return hash(self.hex())


class ActorHandle(StandIn):
    def __getattr__(self, name: str) -> ActorMethod:
        # Any method name: the judge checks it against the actor's class when it is called.
        if name.startswith("__") and name not in BUILTIN_ACTOR_METHODS:
            raise AttributeError(name)
        return ActorMethod(self, name, {})


class ActorMethod:
    def __init__(self, handle: ActorHandle, name: str, opts: dict) -> None:
        self._handle, self._name, self._opts = handle, name, opts

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"Actor methods cannot be called directly. Instead of running 'object.{self._name}()', "
            f"try 'object.{self._name}.remote()'."
        )

    def options(self, **opts: Any) -> ActorMethod:
        return ActorMethod(self._handle, self._name, {**self._opts, **_validate(opts, "method")})

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return link().request("actor.call", self._handle, self._name, self._opts, list(args), kwargs)


class JudgeRemoteFunction(StandIn):
    """A remote function the exercise made and handed over."""

    def options(self, **opts: Any) -> _JudgeOptions:
        return _JudgeOptions(self, _validate(opts, "task"))

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return link().request("submit", self, list(args), kwargs)


class _JudgeOptions:
    def __init__(self, fn: JudgeRemoteFunction, opts: dict) -> None:
        self.fn, self.opts = fn, opts

    def options(self, **opts: Any) -> _JudgeOptions:
        return _JudgeOptions(self.fn, {**self.opts, **_validate(opts, "task")})

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return link().request("submit.options", self.fn, self.opts, list(args), kwargs)


# -- Ray's driver API, forwarded -----------------------------------------------------------------------
def _api(name: str, writes: list | None = None) -> Any:
    """A call of Ray's API, answered by the judge. `writes`: [parameter, position] of a file
    the call writes (`ray.timeline(filename=...)`): written here, in the jail, with what the
    judge returns, as Ray's driver writes it; the judge never sees the name."""

    def call(*args: Any, **kwargs: Any) -> Any:
        target = None
        if writes:
            key, index = writes
            if key in kwargs:
                target = kwargs.pop(key)
            elif len(args) > index:
                target, args = args[index], args[:index] + args[index + 1 :]
        value = link().request("api", name, list(args), kwargs)
        if target is None:
            return value
        with open(target, "w") as f:
            json.dump(value, f)
        return None

    call.__name__ = call.__qualname__ = name.rsplit(".", 1)[-1]
    return call


# -- time and pids: the judge's, while it has a cluster up ------------------------------------------
def _forwarded(name: str, real: Any) -> Any:
    def call(*args: Any) -> Any:
        done, value = link().request("local", name, list(args))
        return value if done else real(*args)

    call.__name__ = call.__qualname__ = getattr(real, "__name__", name)
    return call


def install(config: dict) -> None:
    """What the judge answers, from its table (miniray.api_surface, sent with hello): Ray's calls
    on `miniray`, `miniray.actor` and `miniray.util`, the clock and pids, and the names of
    miniray's own objects the judge takes for its own."""
    mod = sys.modules["miniray"]
    places = {"": mod, "actor": mod.actor, "util": mod.util, "_private.state.state": mod._private.state.state}
    for name, writes in dict(config.get("api", {})).items():
        where, _, attr = str(name).rpartition(".")
        if where in places:
            setattr(places[where], attr, _api(str(name), writes))
    modules = {"time": time, "os": os}
    for name in config.get("clock", []):
        where, _, attr = str(name).partition(".")
        if where in modules and hasattr(modules[where], attr):
            setattr(modules[where], attr, _forwarded(str(name), getattr(modules[where], attr)))
    _SHIPPABLE_NAMES.clear()
    _SHIPPABLE_NAMES.update(str(n) for n in config.get("shipped", []))
    _SHIPPED.clear()
    _MODULES_SEEN[0] = -1


# -- the module the learner imports ---------------------------------------------------------------------
def build(miniray_dir: str) -> types.ModuleType:
    """`miniray`, as the jail has it; also installs `miniray.actor` and `miniray.util`."""
    mod = types.ModuleType("miniray", "miniray, as graded code sees it: Ray's API, run by the grader.")
    mod.__path__ = [miniray_dir]
    mod.__dict__.update(remote=remote, method=method, ObjectRef=ObjectRef, __version__="0.1.0")
    sys.modules["miniray"] = mod
    import miniray.exceptions

    mod.exceptions = miniray.exceptions  # type: ignore[attr-defined]
    actor = types.ModuleType("miniray.actor")
    sys.modules["miniray.actor"] = mod.actor = actor  # type: ignore[attr-defined]
    util = types.ModuleType("miniray.util")
    util.__path__ = [os.path.join(miniray_dir, "util")]
    sys.modules["miniray.util"] = mod.util = util  # type: ignore[attr-defined]
    from miniray.util import scheduling_strategies

    util.scheduling_strategies = scheduling_strategies  # type: ignore[attr-defined]
    util.NodeAffinitySchedulingStrategy = scheduling_strategies.NodeAffinitySchedulingStrategy  # type: ignore[attr-defined]
    util.PlacementGroupSchedulingStrategy = scheduling_strategies.PlacementGroupSchedulingStrategy  # type: ignore[attr-defined]
    # `ray._private.state.state`, where Ray 2.60 shows a drain: its one call is the judge's (install).
    private = types.ModuleType("miniray._private")
    state = types.ModuleType("miniray._private.state")
    state.state = types.SimpleNamespace()  # type: ignore[attr-defined]
    private.state = state  # type: ignore[attr-defined]
    sys.modules["miniray._private"] = mod._private = private  # type: ignore[attr-defined]
    sys.modules["miniray._private.state"] = state
    return mod


# The judge's Ray-shaped objects, as the jail holds them (handles.Link stands in with these).
STANDINS: dict[str, type[StandIn]] = {"ref": ObjectRef, "actor": ActorHandle, "rf": JudgeRemoteFunction}


# What may cross as one of miniray's own objects: the names the judge's table lists (sent with
# hello), each a class or an immutable collection of them. Never a plain value, which is
# identical to many things by accident (small ints, interned strings), nor a mutable one.
SHIPPABLE = (type, tuple, frozenset)
_SHIPPABLE_NAMES: set[str] = set()

# id -> (the object, "module:attr"), for the listed names of the miniray modules imported so far:
# a describe() asks for every learner function and class it sends, each run.
_SHIPPED: dict[int, tuple[Any, str]] = {}
_MODULES_SEEN = [0]  # len(sys.modules) at the last look: a new import is looked at once


def _shippable(value: Any) -> bool:
    return type(value) in SHIPPABLE or isinstance(value, type)


def shipped_name(obj: Any) -> str | None:
    """ "miniray.liveness:RETRYABLE" when the learner holds one of miniray's own objects the
    judge's table lists (imported in the jail from the same source): the judge then uses its
    own, the same object, as in one process, so that a check such as "does the submission use
    miniray's shipped policy" sees what it would see there."""
    if not _shippable(obj):
        return None
    if len(sys.modules) != _MODULES_SEEN[0]:
        _MODULES_SEEN[0] = len(sys.modules)
        _index()
    found = _SHIPPED.get(id(obj))
    return found[1] if found is not None and found[0] is obj else None


def _index() -> None:
    for name in sorted(_SHIPPABLE_NAMES):
        module_name, _, attr = name.partition(":")
        module = sys.modules.get(module_name)
        value = getattr(module, attr, None) if isinstance(module, types.ModuleType) else None
        if value is not None and _shippable(value):
            _SHIPPED.setdefault(id(value), (value, name))


def describe(lk: Link, obj: Any) -> dict:
    """What the judge needs to know of one of the learner's objects to stand in for it."""
    shipped = shipped_name(obj)
    if shipped is not None:
        return {"k": "shipped", "name": shipped}
    if isinstance(obj, RemoteFunction):
        fn = obj._function
        return {"k": "rf", **_names(fn), "opts": lk.encode(obj._opts), "unsupported": _unsupported(fn)}
    if isinstance(obj, ActorClass):
        methods = {}
        for name in dir(obj._cls):
            if name.startswith("__"):
                continue
            member = getattr(obj._cls, name, None)
            if callable(member):
                methods[name] = dict(getattr(member, "__miniray_method_options__", {}))
                if _unsupported(member):
                    methods[name]["_fl_unsupported"] = _unsupported(member)
        return {"k": "ac", **_names(obj), "opts": lk.encode(obj._opts), "methods": lk.encode(methods)}
    meta = {"k": "fn" if isinstance(obj, types.FunctionType) else "obj", **_names(obj)}
    meta["call"] = callable(obj)
    meta["type"] = type(obj).__name__
    meta["repr"] = _repr(obj)
    return meta


def _unsupported(fn: Any) -> str:
    """What the jail cannot run as a task body: miniray steps generators and coroutines itself."""
    if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
        return "a generator"
    if inspect.iscoroutinefunction(fn):
        return "an async function"
    return ""


def _names(obj: Any) -> dict:
    code = getattr(obj, "__code__", None)
    out: dict[str, Any] = {
        "name": str(getattr(obj, "__name__", type(obj).__name__)),
        "qualname": str(getattr(obj, "__qualname__", type(obj).__qualname__)),
        "module": str(getattr(obj, "__module__", "") or ""),
    }
    if isinstance(code, types.CodeType):
        out["code"] = [code.co_name, code.co_firstlineno]
    return out


def _repr(obj: Any) -> str:
    try:
        text = repr(obj)
    except Exception:
        text = f"<{type(obj).__name__} object>"
    return text if len(text) <= 300 else text[:297] + "..."
