"""The judge's stand-ins for the learner's objects, which stay in the jail.

- A learner's remote function becomes a real miniray `RemoteFunction` whose function is a small
  proxy: when miniray runs the task body (an attempt, a replay of it), the proxy asks the jail to
  run the learner's function and returns or raises what it did. miniray's retries, replays and
  injected crashes work unchanged around it: a body that blocks in the jail is unwound there and
  reported here, where the proxy re-raises miniray's own `Suspended` or `WorkerExit`.
- A learner's actor class becomes a real miniray `ActorClass` of a generated class whose
  `__new__` asks the jail for an instance and whose methods run as bodies in the jail. The
  instance's state is the jail's: miniray's snapshot before a method (and its restore before a
  replay) are a deepcopy of `_fl_live`, which asks the jail to copy or restore the state.
- Any other learner object is a `SandboxObject`: its type name and repr, callable through the
  jail if the object is, and nothing else. The judge never runs a learner's method by accident
  (comparing, hashing, printing): only explicit calls cross.
- The submission's module is a `SandboxModule` namespace of such stand-ins.

Every stand-in remembers its jail handle (`__fl_sandbox__`), so passed back it is the learner's
own object again.
"""

from __future__ import annotations

import types
from typing import Any, Protocol

import miniray
from miniray import sim
from miniray.api_surface import OPTIONS, SHIPPED

from . import errors, kinds, wire
from .channel import ChannelBroken


class Bridge(Protocol):
    """What a proxy needs of the judge's side of the conversation (judge.Bridge is the one):
    named here, so that this module does not import the judge that imports it."""

    def request(self, op: str, *payload: Any) -> Any: ...
    def run_body(self, op: str, *payload: Any) -> Any: ...
    def call(self, fn: Any, args: tuple, kwargs: dict) -> Any: ...
    def code_of(self, key: Any) -> types.CodeType | None: ...
    def decode(self, value: Any, depth: int = 0) -> Any: ...


MARK = "__fl_sandbox__"
REPR_CHARS = 300  # of a learner object's repr, as the jail cuts it


@sim.external  # the judge's own: never copied into a worker or an argument
class JailRef:
    """How the judge names one of the jail's objects: a handle, valid for one run, or a name in
    the submission's module, valid in every run (each run loads the module afresh, and the judge
    keeps one set of stand-ins for its functions and classes)."""

    __slots__ = ("wire",)

    def __init__(self, h: int | None = None, name: str | None = None) -> None:
        self.wire = ["S", h] if name is None else ["G", name]


def ref_of(obj: Any) -> list | None:
    """The wire form of one of these stand-ins (["S", handle] or ["G", name]), or None."""
    if type(obj) is JailRef:
        return obj.wire
    if isinstance(obj, SandboxObject) or kinds.is_remote_function(obj) or kinds.is_actor_class(obj):
        ref = getattr(obj, "__dict__", {}).get(MARK)
        return ref.wire if type(ref) is JailRef else None
    return None


@sim.external  # the judge's own: never copied into a worker or an argument
class SandboxObject:
    """A learner's object. Subclassed per type name, so `type(x).__name__` reads as in the jail."""

    def __init__(self, bridge: Bridge, ref: JailRef, meta: dict) -> None:
        self.__dict__[MARK] = ref
        self.__dict__["_fl_bridge"] = bridge
        self.__dict__["_fl_repr"] = str(meta.get("repr", ""))[:REPR_CHARS]
        for key in ("name", "qualname", "module"):
            if type(meta.get(key)) is str:
                self.__dict__[f"__{key}__"] = meta[key][: errors.NAME_CHARS]
        code = bridge.code_of(meta.get("code"))
        if code is not None:
            self.__dict__["__code__"] = code  # the judge's own compile of the source: for reading only

    def __repr__(self) -> str:
        return self.__dict__["_fl_repr"]


class SandboxCallable(SandboxObject):
    """A learner's function, class or callable object: calling it runs it in the jail."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["_fl_bridge"].call(self, args, kwargs)


MAX_STAND_INS = 100_000  # stand-ins for the jail's objects one grading may make
MAX_TYPE_NAMES = 1_000  # distinct type names of the jail's objects in one grading
MAX_EXCEPTION_CLASSES = 256  # distinct exception classes the jail names in one grading


class Made:
    """What one grading's judge has made for the jail's objects: stand-ins, a class per type
    name, a class per exception name. Each is the jail's choosing and lives in the judge's
    memory, so each is capped per grading; past a cap the jail has broken the protocol."""

    def __init__(self) -> None:
        self.stand_ins = 0
        self.types: dict[tuple[str, bool], type] = {}
        self.exceptions: dict[tuple, type] = {}

    def one(self) -> None:
        self.stand_ins += 1
        if self.stand_ins > MAX_STAND_INS:
            raise wire.WireError(f"more than {MAX_STAND_INS} of its objects in one grading")

    def object_class(self, name: str, callable_: bool) -> type:
        name = name if name.isidentifier() and len(name) <= 100 else "object"
        cls = self.types.get((name, callable_))
        if cls is None:
            if len(self.types) >= MAX_TYPE_NAMES:
                raise wire.WireError(f"objects of more than {MAX_TYPE_NAMES} type names in one grading")
            base = SandboxCallable if callable_ else SandboxObject
            cls = self.types[(name, callable_)] = type(name, (base,), {"__module__": "submission"})
        return cls

    def exception_class(self, module: str, qualname: str, bases: list[str]) -> type:
        return errors.stand_in(module, qualname, bases, self.exceptions, MAX_EXCEPTION_CLASSES)


def shipped(name: Any) -> Any:
    """The judge's own miniray object the jail named ("miniray.liveness:RETRYABLE"): only one
    miniray's table lists (`miniray.api_surface.SHIPPED`: classes and tuples of classes, never
    a function), held and compared, never called."""
    value = SHIPPED.get(name) if type(name) is str else None
    if value is None:
        raise wire.WireError(
            f"it named {str(name)[:80]!r}, which is none of miniray's objects a learner may hold"
        )
    return value


def make(bridge: Bridge, made: Made, ref: JailRef, meta: dict, depth: int = 0) -> Any:
    """The judge's stand-in for one of the jail's objects; `depth`: how deep in its message."""
    kind = meta.get("k")
    if kind == "shipped":
        return shipped(meta.get("name"))
    made.one()
    if kind == "rf":
        return _remote(bridge, meta, depth)(_body(bridge, ref, meta))
    if kind == "ac":
        cls = _remote(bridge, meta, depth)(_actor_class(bridge, ref, meta, depth))
        cls.__dict__[MARK] = ref
        return cls
    return made.object_class(str(meta.get("type", "object")), bool(meta.get("call")))(bridge, ref, meta)


def _options(bridge: Bridge, encoded: Any, depth: int) -> dict:
    opts = bridge.decode(encoded, depth)
    if type(opts) is not dict or not all(type(k) is str for k in opts) or not OPTIONS.admits(opts):
        raise wire.WireError("options that are not a remote function's")
    return opts


def _remote(bridge: Bridge, meta: dict, depth: int) -> Any:
    """miniray's own decorator with the options the jail's decorator checked (again here)."""
    try:
        return miniray.remote(**_options(bridge, meta.get("opts", ["d"]), depth))
    except (TypeError, ValueError) as e:
        raise wire.WireError(f"options miniray refuses ({e})") from None


def _named(fn: Any, meta: dict, method: str = "") -> Any:
    """The learner's name on a proxy (miniray names tasks and attempts after it), and this
    module's: miniray copies a learner module's state into each worker process, and the proxy's
    own (its bridge) is not the learner's. That copying happens in the jail (inside.py)."""
    fn.__name__ = method or str(meta.get("name", "f"))
    fn.__qualname__ = f"jailed.{fn.__name__}"
    fn.__module__ = __name__
    return fn


GENERATOR = "a generator"  # what client._unsupported says of a (sync) generator function


def _refuse(what: str, name: str) -> None:
    raise TypeError(
        f"{name} is {what}: the graded sandbox runs task and actor bodies that return or yield, "
        "not async ones (grade it with --unsafe-local to try it)"
    )


def _stepped(bridge: Bridge, started: Any) -> Any:
    """The judge's side of a learner's generator: miniray steps this one (each `yield` a step of
    the body, journaled as in one process), and each step asks the jail for the learner's next
    item. A body that blocks unwinds the jail's generator with it, and miniray re-runs this one
    from the start, as it re-runs a generator body in one process."""
    handle = started()
    while True:
        step = bridge.run_body("next", handle)
        if type(step) is not list or len(step) != 2 or type(step[0]) is not bool:
            raise ChannelBroken("broke the protocol: a generator's step has the wrong shape")
        if not step[0]:
            return
        yield step[1]


def _body(bridge: Bridge, ref: JailRef, meta: dict) -> Any:
    unsupported = str(meta.get("unsupported") or "")
    if unsupported == GENERATOR:

        def generator(*args: Any, **kwargs: Any) -> Any:
            yield from _stepped(bridge, lambda: bridge.run_body("gen", ref, list(args), kwargs))

        generator.__dict__[MARK] = ref
        return _named(generator, meta)

    def body(*args: Any, **kwargs: Any) -> Any:
        if unsupported:
            _refuse(unsupported, str(meta.get("name")))
        return bridge.run_body("body", ref, list(args), kwargs)

    body.__dict__[MARK] = ref  # update_wrapper copies it onto the RemoteFunction
    return _named(body, meta)


class LiveInstance:
    """An actor instance's state, which lives in the jail: copying it asks the jail for a snapshot."""

    def __init__(self, bridge: Bridge, instance: Any) -> None:
        self.bridge, self.instance = bridge, instance

    def __deepcopy__(self, memo: dict) -> Snapshot:
        return Snapshot(self.bridge, self.instance, self.bridge.request("snapshot", self.instance))


class Snapshot:
    """A copy of an actor's state kept in the jail: copying it back restores the instance."""

    def __init__(self, bridge: Bridge, instance: Any, snap: int) -> None:
        self.bridge, self.instance, self.snap = bridge, instance, snap

    def __deepcopy__(self, memo: dict) -> LiveInstance:
        self.bridge.request("restore", self.instance, self.snap)
        return LiveInstance(self.bridge, self.instance)


def _actor_class(bridge: Bridge, ref: JailRef, meta: dict, depth: int) -> type:
    methods = bridge.decode(meta.get("methods", ["d"]), depth)
    if type(methods) is not dict or not OPTIONS.admits(methods):
        raise wire.WireError("an actor class's methods that are not a table of options")

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        obj: Any = object.__new__(cls)
        obj.__dict__["_fl_live"] = LiveInstance(bridge, bridge.request("new", ref))
        return obj

    def method(name: str) -> Any:
        opts = methods.get(name)
        opts = dict(opts) if isinstance(opts, dict) else {}
        unsupported = str(opts.pop("_fl_unsupported", "") or "")
        if unsupported == GENERATOR:

            def generator(self: Any, *args: Any, **kwargs: Any) -> Any:
                instance = self._fl_live.instance
                yield from _stepped(
                    bridge, lambda: bridge.run_body("gen_method", instance, name, list(args), kwargs)
                )

            fn = _named(generator, meta, name)
            if opts:
                fn.__miniray_method_options__ = opts
            return fn

        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            if unsupported:
                _refuse(unsupported, name)
            return bridge.run_body("method", self._fl_live.instance, name, list(args), kwargs)

        fn = _named(run, meta, name)
        if opts:
            fn.__miniray_method_options__ = opts
        return fn

    body: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": f"jailed.{meta.get('name', 'Actor')}",
        "__new__": __new__,
        "__init__": method("__init__"),
    }
    for name in methods:
        if type(name) is str and name.isidentifier() and not name.startswith("__"):
            body[name] = method(name)
    name = str(meta.get("name", "Actor"))
    return type(name if name.isidentifier() else "Actor", (), body)


class SandboxModule(types.SimpleNamespace):
    """The submission as a module: its functions, classes and modules (what `vars()` shows);
    any other module-level value is fetched from the jail when read."""

    _fl_bridge: Bridge  # set on the per-grading subclass (judge.Bridge), never in vars()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return type(self)._fl_bridge.request("global", name)
