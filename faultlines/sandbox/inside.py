"""The jailed process: load the learner's code, then run what the judge asks of it.

It holds the submission's source (sent on the pipe, never a file the judge names), the learner's
objects, and nothing that decides a verdict: no exercise files, no report channel, no nonce. Its
fd 1 is not the judge's pipe (the pipe is dup'ed away first), so printing, even with os.write,
reaches only the judge's bounded stderr tail.

The judge's requests (see judge.py for the other side):
    hello (config)       set the limits, compile the source, load it once: the import-time checks
    (header fresh)       a new namespace and the compiled module run in it, before the request it
                         rides on: every graded run starts from a fresh load, so nothing carries
                         from one run to the next
    global (name)        one module-level value
    call (f, args, kw)   call a learner function from the driver; the list, dict and set
                         arguments the function changed come back too (the judge passed them)
    body (f, args, kw)   run a task body: a learner's remote function's own function
    new (actor class)    an actor instance, not yet initialised (miniray calls __init__ as a body)
    method (o, name, args, kw)         an actor method as a body (__init__ included)
    snapshot (o) / restore (o, s)      an actor instance's state, for miniray's replay
A header `reset` (the line budget) starts counting the learner's statements; the count rides
back with every message. Each call made inside a task body comes with the attempt's key, pid and
run, for that worker process's own copy of the learner's state (processes.py).
"""

from __future__ import annotations

import copy
import inspect
import linecache
import os
import resource
import sys
import types
from collections.abc import Callable
from typing import Any

from . import client, wire
from .channel import Channel, ChannelBroken
from .handles import Link, Unwind, install_output
from .processes import Processes


class Reload(Exception):
    """Loading the submission afresh for a run failed, though it loaded the first time (its
    message is the grader's BadSubmission line)."""


class Named:
    """A module-level object, sent by name (see hello)."""

    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value = name, value


class Inside:
    def __init__(self, link: Link) -> None:
        self.link = link
        self.loader: Any = None  # submission.CompiledFile, from hello
        self.filename = "submission.py"
        self.namespace: dict[str, Any] = {}
        self.snapshots: dict[int, dict] = {}
        self._snap = 0
        self.generators: dict[int, tuple[Any, Any]] = {}
        self._gens = 0
        self.hdr: dict = {}  # the request being served's header: the calling attempt, if any
        from faultlines.grader import budgets

        self.budgets = budgets
        self.counter = budgets.Counter(1)
        self.ops: dict[str, Callable[..., Any]] = {
            "hello": self.hello,
            "global": self.global_,
            "call": self.call,
            "body": self.body,
            "new": self.new,
            "method": self.method,
            "gen": self.gen,
            "gen_method": self.gen_method,
            "next": self.next,
            "snapshot": self.snapshot,
            "restore": self.restore,
        }

    # -- the loop's one step -----------------------------------------------------------------------
    def serve(self, op: str, payload: Any, hdr: dict) -> tuple[str, Any]:
        handler = self.ops.get(op)
        if handler is None:
            raise ChannelBroken(f"the judge asked for {op!r}")
        if hdr.get("fresh"):  # the run's first request: load the module afresh before it
            try:
                self.fresh()
            except BaseException as e:  # BadSubmission's line, as the grader's own load gives it
                return "x", self._error(Reload(str(e).splitlines()[0] if str(e) else type(e).__name__))
        budget = hdr.get("reset")
        if type(budget) is int:
            self.counter = self.budgets.Counter(budget)
            self.budgets.Counter.active = self.counter
            self.link.counter = self.counter
        args = self.link.decode(payload)
        outer, self.hdr = self.hdr, hdr
        try:
            value = handler(*args)
        except Unwind as u:
            return "u", u.token
        except ChannelBroken:
            raise
        except BaseException as e:  # the learner's, to the judge: it decides what each one means
            return "x", self._error(e)
        finally:
            self.hdr = outer
        try:
            return "a", self.link.encode(value)
        except wire.WireError as e:
            return "x", self._error(TypeError(f"a value that cannot be sent to the grader: {e}"))

    def _error(self, e: BaseException) -> Any:
        try:
            return self.link.encode(e)
        except wire.WireError:
            return self.link.encode(RuntimeError(f"{type(e).__name__} (its details cannot be sent)"))

    # -- loading -----------------------------------------------------------------------------------
    def hello(self, config: dict) -> dict:
        _limit(config.get("limits", {}))
        client.install(config)  # what the judge answers: before any of the learner's code runs
        from faultlines.grader import submission

        source, self.filename = str(config["source"]), str(config["filename"])
        entries, budget = list(config["entries"]), int(config["line_budget"])
        # The file is not in the jail: its lines come from the source, for the learner's tracebacks.
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True), self.filename)
        sub = submission.from_source(source, self.filename, entries, budget)  # BadSubmission: one line
        self.loader = sub.loader  # the compiled file, run again for every graded run
        self.fresh()
        # The module's functions, classes and modules, and any of miniray's own constants it
        # holds, named: the judge keeps one stand-in for each across runs, and a name means the
        # current run's object.
        return {
            name: Named(name, value)
            for name, value in self.namespace.items()
            if not name.startswith("__")
            and (
                callable(value) or type(value).__name__ == "module" or client.shipped_name(value) is not None
            )
        }

    def fresh(self) -> None:
        """A new run: a new namespace, the compiled module run in it, the last run's objects let go."""
        self.link.clear()
        self.snapshots.clear()
        self.generators.clear()
        self.budgets.Counter.active = None
        self.link.counter = None
        with self.loader.fresh() as namespace:  # the grader's own load (submission.CompiledFile)
            self.namespace = namespace
        self.link.namespace = self.namespace
        self.link.processes = Processes("submission", self.namespace)

    def global_(self, name: str) -> Any:
        if name not in self.namespace:
            raise AttributeError(f"the submission has no {name!r}")
        return self.namespace[name]

    # -- running the learner's code ------------------------------------------------------------------
    def call(self, fn: Any, args: list, kwargs: dict) -> Any:
        before = [(i, self.link.encode(a)) for i, a in enumerate(args) if type(a) in (list, dict, set)]
        key = self.hdr.get("key")
        # Called from the scenario's own task: in one process its footprint is the namespace.
        reach = self.link.processes.scenario_task(key.split("#")[0]) if type(key) is str else fn
        with self.link.processes.running(reach, self.hdr):
            value = fn(*args, **kwargs)
        changed = {}
        for i, was in before:
            now = self.link.encode(args[i])
            if now != was:
                changed[i] = args[i]
        return [value, changed]

    def body(self, fn: Any, args: list, kwargs: dict) -> Any:
        target = fn._function if isinstance(fn, client.RemoteFunction) else fn
        args, kwargs = _own_copies(args, kwargs)
        with self.link.processes.running(target, self.hdr):
            return _own(target(*args, **kwargs))

    # A learner's generator lives here between the judge's steps (proxies._stepped), one run's
    # at most MAX_GENERATORS: a run that makes more is refused, not remembered without end.
    def gen(self, fn: Any, args: list, kwargs: dict) -> int:
        target = fn._function if isinstance(fn, client.RemoteFunction) else fn
        return self._keep(target, target, args, kwargs)

    def gen_method(self, instance: Any, name: str, args: list, kwargs: dict) -> int:
        return self._keep(type(instance), getattr(instance, name, None), args, kwargs)

    def _keep(self, owner: Any, function: Any, args: list, kwargs: dict) -> int:
        """Start `function`'s generator on this body's own copies of its arguments, and keep it."""
        if not inspect.isgeneratorfunction(function):
            raise ChannelBroken("the judge asked to step what is not a generator")
        if len(self.generators) >= MAX_GENERATORS:
            raise RuntimeError(f"more than {MAX_GENERATORS} generators running in one grading run")
        args, kwargs = _own_copies(args, kwargs)
        self._gens += 1
        self.generators[self._gens] = (owner, function(*args, **kwargs))
        return self._gens

    def next(self, handle: int) -> list:
        """One item of a kept generator: [True, item], or [False, None] once it is done. Its code
        runs as the calling attempt's process, as a body's does; an exception or an unwind (the
        body blocked) ends it, as it ends a generator in one process."""
        kept = self.generators.get(handle) if type(handle) is int else None
        if kept is None:
            raise ChannelBroken("the judge asked for a generator this run does not hold")
        owner, generator = kept
        try:
            with self.link.processes.running(owner, self.hdr):
                item = next(generator)
        except StopIteration:
            del self.generators[handle]
            return [False, None]
        except BaseException:
            del self.generators[handle]
            raise
        return [True, _own(item)]

    def new(self, cls: Any) -> Any:
        target: Any = cls._cls if isinstance(cls, client.ActorClass) else cls
        return target.__new__(target)

    def method(self, instance: Any, name: str, args: list, kwargs: dict) -> Any:
        args, kwargs = _own_copies(args, kwargs)
        with self.link.processes.running(type(instance), self.hdr):
            return _own(getattr(instance, name)(*args, **kwargs))

    def snapshot(self, instance: Any) -> int:
        self._snap += 1
        self.snapshots[self._snap] = copy.deepcopy(instance.__dict__)
        return self._snap

    def restore(self, instance: Any, snap: int) -> None:
        saved = self.snapshots[snap]
        instance.__dict__.clear()
        instance.__dict__.update(copy.deepcopy(saved))


def _own(value: Any) -> Any:
    """A copy of what a body gets or returns, as Ray (and miniray) copy a task's arguments and
    results for each reader: plain data already is one (it crossed as JSON), a learner's object
    named by handle is not. The judge's handles stay as they are; what cannot be copied (a lock)
    is shared, as miniray shares it."""
    if type(value) in _PLAIN:
        return value
    try:
        return copy.deepcopy(value)
    except Exception:
        return value


def _own_copies(args: list, kwargs: dict) -> tuple[list, dict]:
    return [_own(a) for a in args], {k: _own(v) for k, v in kwargs.items()}


_PLAIN = (type(None), bool, int, float, str, bytes)
MAX_GENERATORS = 10_000  # live at once in one grading run


def _limit(limits: dict) -> None:
    """Set before any learner code runs; with no capabilities, the jail cannot raise them back."""
    pairs = {
        "cpu_seconds": resource.RLIMIT_CPU,
        "memory_bytes": resource.RLIMIT_AS,
        "file_bytes": resource.RLIMIT_FSIZE,
        "open_files": resource.RLIMIT_NOFILE,
        "nproc": resource.RLIMIT_NPROC,
    }
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for key, which in pairs.items():
        value = limits.get(key)
        if type(value) is int and value > 0:
            soft = value
            hard = value + 5 if which == resource.RLIMIT_CPU else value  # SIGXCPU first, then SIGKILL
            resource.setrlimit(which, (soft, hard))


def main() -> None:
    # The pipe to the judge moves off fds 0 and 1, so nothing the learner prints can reach it.
    rfd, wfd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)
    channel = Channel(rfd, wfd)
    # A process the learner's code forks (os.fork) must not speak on the judge's pipe: its copy of
    # the conversation is closed in it, before the learner's code there goes on.
    os.register_at_fork(after_in_child=channel.sever)
    link = Link(channel, client.describe, client.STANDINS)
    client.LINK = link
    code = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    # The learner's `miniray` first: nothing here may import the simulator itself.
    client.build(os.path.join(code, "miniray"))
    # The grader's budgets and loader, without the grader package's __init__ (which sets up
    # miniray for grading in the judge, and is not mounted in the jail).
    grader = types.ModuleType("faultlines.grader")
    grader.__path__ = [os.path.join(code, "faultlines", "grader")]
    sys.modules["faultlines.grader"] = grader
    inside = Inside(link)
    channel.serve = inside.serve
    install_output(link)
    try:
        channel.serve_forever()
    except ChannelBroken:
        pass
    sys.stdout.flush()
    os._exit(0)
