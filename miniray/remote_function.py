"""What `@miniray.remote` returns: remote functions, actor classes, handles and methods."""

from __future__ import annotations

import functools
from typing import Any

from . import context, generators
from .actors import BUILTIN_METHODS
from .copying import shared
from .options import validate
from .tasks import TaskSpec


@shared
class RemoteFunction:
    def __init__(self, fn, opts: dict):
        self._function = fn
        self._opts = validate(dict(opts), "task")
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"Remote functions cannot be called directly. Instead of running "
            f"'{self._function.__module__}.{self._function.__name__}()', try "
            f"'{self._function.__module__}.{self._function.__name__}.remote()'."
        )

    def options(self, **opts) -> RemoteFunction:
        merged = dict(self._opts)
        merged.update(validate(dict(opts), "task"))
        clone = RemoteFunction.__new__(RemoteFunction)
        clone._function, clone._opts = self._function, merged
        functools.update_wrapper(clone, self._function)
        return clone

    def remote(self, *args, **kwargs):
        rt = context.runtime()
        name = self._opts.get("name") or self._function.__name__
        num_returns = self._opts.get("num_returns", 1)
        how = generators.mode(self._function, self._opts.get("num_returns"))  # a generator task?
        if how == generators.STREAMING:
            num_returns = 0
        elif how == generators.DYNAMIC:
            num_returns = 1

        def live():
            opts = self._opts if how is None else dict(self._opts, _generator=how)
            spec = TaskSpec(rt, name, self._function, args, kwargs, opts, rt.caller())
            spec.export = rt.exports.of(self._function)  # its first .remote() in this runtime exports it
            if how is not None:
                spec.fn = generators.body_for(self._function, spec, how)
            refs = rt.tasks.submit(spec, num_returns)
            if how == generators.STREAMING:
                assert spec.stream is not None  # tasks.submit opens the stream of every streaming spec
                return generators.ObjectRefGenerator(spec.stream)
            return refs[0] if num_returns == 1 else (None if num_returns == 0 else refs)

        return context.interact(rt, live, f"submit {name}")


@shared
class ActorClass:
    def __init__(self, cls, opts: dict):
        self._cls = cls
        self._opts = validate(dict(opts), "actor")
        self.__name__ = cls.__name__
        self.__qualname__ = cls.__qualname__
        self.__doc__ = cls.__doc__
        self.__module__ = cls.__module__

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"Actors cannot be instantiated directly. Instead of '{self._cls.__name__}()', "
            f"use '{self._cls.__name__}.remote()'."
        )

    def __getattr__(self, name: str) -> Any:
        """The class's own attributes (`Counter.registry`), as Ray's ActorClass inherits them."""
        if name.startswith("__") or name in ("_cls", "_opts"):
            raise AttributeError(name)
        return getattr(self._cls, name)

    def __setattr__(self, name: str, value: Any) -> None:
        """`Counter.n += 1` in a method writes the class attribute, which each actor's process has
        its own copy of (miniray/isolation): on Ray it lands on that process's copy of the class."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._cls, name, value)

    def options(self, **opts) -> ActorClass:
        merged = dict(self._opts)
        merged.update(validate(dict(opts), "actor"))
        clone = ActorClass.__new__(ActorClass)
        clone.__dict__.update(self.__dict__)
        clone._opts = merged
        return clone

    def remote(self, *args, **kwargs) -> ActorHandle:
        rt = context.runtime()

        def live():
            actor = rt.actors.create(self._cls, args, kwargs, self._opts, rt.caller())
            return ActorHandle(actor)

        return context.interact(rt, live, f"create actor {self.__name__}")


@shared
class ActorHandle:
    def __init__(self, actor):
        self._actor = actor
        self._actor_id = actor.actor_id

    def __getattr__(self, name: str) -> ActorMethod:
        if name in BUILTIN_METHODS:  # __ray_ready__, __ray_terminate__: every actor has them
            return ActorMethod(self, name, {})
        if name.startswith("__"):
            raise AttributeError(name)
        member = getattr(self._actor.cls, name, None)
        if member is None or not callable(member):
            raise AttributeError(
                f"'ActorHandle' object has no attribute '{name}': "
                f"{self._actor.class_name} has no method named '{name}'."
            )
        return ActorMethod(self, name, dict(getattr(member, "__miniray_method_options__", {})))

    def __repr__(self) -> str:
        return f"Actor({self._actor.class_name}, {self._actor_id})"

    def __reduce__(self):
        return (_rebuild_handle, (self._actor,))


def _rebuild_handle(actor) -> ActorHandle:
    return ActorHandle(actor)


@shared
class ActorMethod:
    def __init__(self, handle: ActorHandle, name: str, opts: dict):
        self._handle = handle
        self._name = name
        self._opts = opts

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"Actor methods cannot be called directly. Instead of running "
            f"'object.{self._name}()', try 'object.{self._name}.remote()'."
        )

    def options(self, **opts) -> ActorMethod:
        merged = dict(self._opts)
        merged.update(validate(dict(opts), "method"))
        return ActorMethod(self._handle, self._name, merged)

    def remote(self, *args, **kwargs):
        rt = context.runtime()
        num_returns = self._opts.get("num_returns", 1)
        actor = self._handle._actor
        how = generators.mode(getattr(actor.cls, self._name, None), self._opts.get("num_returns"))
        if how == generators.STREAMING:
            num_returns = 0
        elif how == generators.DYNAMIC:
            num_returns = 1

        def live():
            opts = {k: v for k, v in self._opts.items() if k != "num_returns"}
            if how is not None:
                opts["_generator"] = how
            refs = rt.actors.call(actor, self._name, args, kwargs, opts, rt.caller(), num_returns)
            if how == generators.STREAMING:
                stream = rt.tasks.all[-1].stream  # the call just submitted
                assert stream is not None  # tasks.submit opens the stream of every streaming spec
                return generators.ObjectRefGenerator(stream)
            return refs[0] if num_returns == 1 else (None if num_returns == 0 else refs)

        return context.interact(rt, live, f"call {actor.class_name}.{self._name}")


def method(*args, **opts):
    """`@miniray.method(num_returns=2, max_task_retries=...)` on an actor method."""
    if args:
        raise TypeError(
            "Use @miniray.method(...) with keyword arguments, e.g. @miniray.method(num_returns=2)."
        )
    validate(dict(opts), "method")

    def decorate(fn):
        fn.__miniray_method_options__ = opts
        return fn

    return decorate


def remote(*args, **opts):
    """`@miniray.remote` or `@miniray.remote(num_cpus=..., max_retries=...)` on a function or class."""
    if len(args) == 1 and not opts and callable(args[0]):
        return _make(args[0], {})
    if args:
        raise TypeError(
            "The @miniray.remote decorator takes keyword arguments only, e.g. @miniray.remote(num_cpus=1)."
        )

    def decorate(target):
        return _make(target, opts)

    return decorate


def _make(target: Any, opts: dict):
    if isinstance(target, type):
        return ActorClass(target, opts)
    if callable(target):
        return RemoteFunction(target, opts)
    raise TypeError(f"@miniray.remote decorates a function or a class, not {type(target).__name__}.")
