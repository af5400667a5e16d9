"""The judge's end of one jailed process: a Submission whose code runs in the jail.

`Bridge` holds the conversation and the tables (the judge's objects the jail may name, the
stand-ins for the jail's objects) and serves the jail's requests (served.py). A request that
blocks or crashes a body in the simulation (miniray raises `Suspended` or `WorkerExit`) is
answered "unwind": the jail unwinds the learner's frames, and the judge's proxy re-raises
miniray's own exception where miniray expects it.

What comes from the jail is decoded with `wire` (plain data and handles) and never executed.
Its exceptions are rebuilt as builtins, as miniray's own classes built from plain arguments, or
as stand-ins named like them; a SystemExit stays one (a task's `sys.exit()` ends its worker, as
in Ray), and the learner's budget running out is the grader's own LearnerBudgetExceeded.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from faultlines.grader import budgets
from faultlines.grader.submission import BadSubmission
from miniray import sim
from miniray.api_surface import EXCEPTIONS, PLAIN
from miniray.isolation import process_salt

from . import errors, kinds, proxies, records, wire
from .channel import Channel, ChannelBroken, now
from .exposure import Exposure
from .jail import Jail
from .served import Served

# The judge's own objects (the bridge, the stand-ins) are never the learner's state, and journal
# sites name the learner's line, not these.
sim.library_code("faultlines.sandbox")
OUTPUT_LIMIT = 1024 * 1024  # characters of learner output the judge keeps, per grading
JUDGE_CLASSES: dict[tuple[str, str], type] = {
    ("faultlines.grader.budgets", "LearnerBudgetExceeded"): budgets.LearnerBudgetExceeded,
    ("faultlines.grader.submission", "BadSubmission"): BadSubmission,
}


@sim.external  # the judge's own: never copied into a worker or an argument
class Bridge(Served):
    """One grading's conversation with its jail."""

    def __init__(self, jail: Jail, exposure: Exposure, deadline: float, source: str, filename: str) -> None:
        self.jail = jail
        self.exposure = exposure
        self.channel = Channel(
            jail.from_inside, jail.to_inside, bounded=True, deadline=deadline, stderr_fd=jail.errors
        )
        self.channel.serve = self.serve
        self.channel.outgoing = self._header
        self.channel.incoming = self._incoming
        self.exports: dict[int, Any] = {}  # handle -> the judge's object the jail may name
        self._ids: dict[int, int] = {}  # id(object) -> handle
        self._next = 0
        self.proxies: dict[int, Any] = {}  # jail handle -> its stand-in, this run
        self.pending: dict[int, BaseException] = {}  # unwind token -> miniray's exception
        self._token = 0
        self.lines = 0
        self.reset: int | None = None
        self._call_hdr: dict | None = None
        self._released: list = []  # handles the last message let go, applied once it is decoded
        self._fresh = False  # the next request starts a run: the jail loads the module afresh
        self.listing: dict[str, Any] = {}  # the module's functions and classes, by name
        self.globals: dict[str, Any] = {}  # their stand-ins, kept across runs
        self.output_left = OUTPUT_LIMIT
        self.cpu_seen = (0.0, now())  # the jail's CPU seconds as it last said, and when
        self._modules: dict[str, types.ModuleType] = {}
        self.codes = _code_map(source, filename)
        self.filename = filename
        self.source_lines = source.count("\n") + 1
        self._lines: dict[int, Callable[..., Any]] = {}  # line -> a trampoline that reads as it
        self.module_class = type("submission", (proxies.SandboxModule,), {"_fl_bridge": self})
        self.made = proxies.Made()  # what the jail's objects cost the judge, capped per grading
        self._budget: wire.Budget | None = None  # the message being decoded may spend this
        Served.__init__(self, exposure)

    # -- asking the jail ---------------------------------------------------------------------------
    def request(self, op: str, *payload: Any) -> Any:
        kind, body = self.channel.call(op, self.encode(list(payload)))
        if kind == "a":
            return self._decode_reply(body)
        if kind == "u":
            error = self.pending.pop(body, None) if type(body) is int else None
        else:
            error = self._decode_reply(body)
        if not isinstance(error, BaseException):
            raise ChannelBroken("broke the protocol: an unwind or a raise without its exception")
        try:
            raise error
        finally:
            # No cycle through this frame: the exception's frames (and the ObjectRefs they hold)
            # go when whoever catches it lets it go, as they would in one process.
            del error

    def _decode_reply(self, body: Any) -> Any:
        """A message from the jail, decoded within its budget: values, and the grading's
        wall-clock deadline, which goes on while the judge decodes."""
        outer, self._budget = self._budget, wire.Budget(self.channel.deadline, now)
        try:
            value = self.decode(body)
        except wire.OutOfTime:
            raise ChannelBroken("ran past its wall-clock limit") from None
        except wire.WireError as e:
            raise ChannelBroken(f"broke the protocol: {e}") from None
        except RecursionError:
            raise ChannelBroken("broke the protocol: a value nested too deep") from None
        finally:
            self._budget = outer
        self._release()
        return value

    def _release(self) -> None:
        """Let go of what the jail no longer holds, once the message naming it is decoded. Often
        the judge's last reference: an ObjectRef the learner dropped is freed here, before anything
        else happens in the simulation, as it would be in one process."""
        released, self._released = self._released, []
        for h in released:
            if type(h) is int:
                obj = self.exports.pop(h, None)
                if obj is not None:
                    self._ids.pop(id(obj), None)
                obj = None

    def run_body(self, op: str, *payload: Any) -> Any:
        """A task body or actor method: the attempt's pid and key go with it (each simulated
        worker process will keep its own copy of the learner's module state, keyed by pid)."""
        self._attempt()
        return self.request(op, *payload)

    def _attempt(self) -> None:
        """The running attempt goes with the next request: in the jail, each simulated worker
        process keeps its own copy of the learner's state (processes.py), by pid and run."""
        attempt, rt = sim.current_attempt(), sim.last_runtime()
        if attempt is not None and rt is not None:
            salt = process_salt(rt.seed, attempt.pid)  # its hash() salt, as in one process
            self._call_hdr = {"pid": attempt.pid, "key": attempt.key, "runs": attempt.runs, "salt": salt}

    def call(self, fn: Any, args: tuple, kwargs: dict) -> Any:
        """A learner function called from the judge's driver code. The lists, dicts and sets it
        was given and changed are changed here too, as they would be in one process."""
        args = tuple(args)
        self._attempt()
        reply = self.request("call", fn, list(args), kwargs)
        if type(reply) is not list or len(reply) != 2 or type(reply[1]) is not dict:
            raise ChannelBroken("broke the protocol: a call's reply has the wrong shape")
        value, changed = reply
        for i, new in changed.items():
            if type(i) is int and 0 <= i < len(args):
                _update(args[i], new)
        return value

    def start(self, config: dict) -> None:
        """Load the submission in the jail (its import-time checks raise BadSubmission here) and
        keep a stand-in for each of its module-level functions and classes, for every run."""
        listing = self.request("hello", config)
        if type(listing) is not dict:
            raise ChannelBroken("broke the protocol: a module that is not a namespace")
        self.listing = {k: v for k, v in listing.items() if type(k) is str and k.isidentifier()}

    def fresh(self) -> proxies.SandboxModule:
        """A new run: the jail loads the submission afresh with the run's first request (no
        round trip of its own); the last run's objects are let go on both sides."""
        self.exports.clear()
        self._ids.clear()
        self.proxies.clear()
        self.pending.clear()
        self._fresh = True
        return self.module_class(**self.listing)

    def code_of(self, key: Any) -> types.CodeType | None:
        if type(key) is list and len(key) == 2:
            return self.codes.get((key[0], key[1]))
        return None

    # -- headers -----------------------------------------------------------------------------------
    def _header(self) -> dict:
        hdr: dict = {}
        if self._fresh:
            hdr["fresh"], self._fresh = True, False
        if self.reset is not None:
            hdr["reset"], self.reset = self.reset, None
        if self._call_hdr is not None:
            hdr.update(self._call_hdr)
            self._call_hdr = None
        return hdr

    def _incoming(self, hdr: dict) -> None:
        out = hdr.get("out")
        if type(out) is str and out and self.output_left > 0:
            text = out[: self.output_left]
            self.output_left -= len(text)
            sys.stdout.write(text)
        released = hdr.get("rel")
        self._released = released if type(released) is list else []
        lines = hdr.get("n")
        if type(lines) is int:
            self.lines = lines
        cpu = hdr.get("cpu")
        if isinstance(cpu, (int, float)) and not isinstance(cpu, bool):
            self.cpu_seen = (float(cpu), now())

    # -- serving the jail --------------------------------------------------------------------------
    def serve(self, op: str, payload: Any, hdr: dict) -> tuple[str, Any]:
        handler = self.ops.get(op)
        if handler is None:
            raise ChannelBroken(f"broke the protocol: it asked for {op!r}")
        args = self._decode_reply(payload)
        if type(args) is not list:
            raise ChannelBroken("broke the protocol: a request without arguments")
        try:
            line = hdr.get("site")
            value = handler(*args) if type(line) is not int else self.at_line(line, handler, args)
        except Exception as e:  # the learner's code asked for something that failed: raise it there
            return "x", self.encode(e)
        except BaseException as e:
            if not kinds.ends_a_body(e):  # Ctrl-C, the jail broken: the grading stops
                raise
            # miniray stops the body here (it blocked, its worker crashed): the jail unwinds the
            # learner's frames, and the body's proxy raises this where miniray expects it.
            self._token += 1
            self.pending[self._token] = e
            return "u", self._token
        try:
            return "a", self.encode(value)
        except wire.WireError as e:
            return "x", self.encode(TypeError(f"the grader cannot send this value: {e}"))

    def at_line(self, line: int, handler: Callable[..., Any], args: list) -> Any:
        """Run `handler` from a frame that reads as the submission's own line `line`: miniray's
        journal names the learner's file:line of each call it records (the first frame outside
        miniray and library code), and the learner's frames are in the jail, not here."""
        if not 0 < line <= self.source_lines:
            return handler(*args)
        at = self._lines.get(line)
        if at is None:
            code = compile("\n" * (line - 1) + "def _at(fn, args): return fn(*args)\n", self.filename, "exec")
            space: dict[str, Any] = {"__name__": "submission"}  # the learner's module, by name
            exec(code, space)
            at = self._lines[line] = space["_at"]
        return at(handler, args)

    # -- values ------------------------------------------------------------------------------------
    def encode(self, value: Any) -> Any:
        return wire.encode(value, self._export)

    def decode(self, value: Any, depth: int = 0) -> Any:
        return wire.decode(value, self._resolve, depth, self._budget)

    def handed_over(self, obj: Any) -> bool:
        h = self._ids.get(id(obj))
        return h is not None and self.exports.get(h) is obj

    def _handle(self, obj: Any) -> int:
        h = self._ids.get(id(obj))
        if h is not None and self.exports.get(h) is obj:
            return h
        self._next += 1
        self.exports[self._next] = obj
        self._ids[id(obj)] = self._next
        return self._next

    def _export(self, obj: Any) -> list:
        ref = proxies.ref_of(obj)
        if ref is not None:
            return ref
        if isinstance(obj, BaseException):
            attrs = {k: v for k, v in vars(obj).items() if k != "cause" and not k.startswith("__")}
            return errors.write(obj, self.encode, self._export, handle=self._handle(obj), attrs=attrs)
        record = records.of(obj)
        if record is not None:
            return ["R", record[0], self.encode(record[1])]
        return ["J", self._handle(obj), self.exposure.describe(obj)]

    def _resolve(self, value: list, depth: int) -> Any:
        tag = value[0]
        if tag == "J" and len(value) == 2 and type(value[1]) is int:
            if value[1] not in self.exports:
                raise wire.WireError(f"it named object {value[1]}, which it was never given")
            return self.exports[value[1]]
        if tag == "S" and len(value) == 3 and type(value[1]) is int and type(value[2]) is dict:
            proxy = self.proxies.get(value[1])
            if proxy is None:
                proxy = self.proxies[value[1]] = proxies.make(
                    self, self.made, proxies.JailRef(value[1]), value[2], depth
                )
            return proxy
        if tag == "G" and len(value) == 3 and type(value[1]) is str and type(value[2]) is dict:
            if value[1] not in self.globals:
                self.globals[value[1]] = proxies.make(
                    self, self.made, proxies.JailRef(name=value[1]), value[2], depth
                )
            return self.globals[value[1]]
        if tag == "E":
            return self._rebuild(value, depth)
        if tag == "R" and len(value) == 3:
            return records.make(value[1], self.decode(value[2], depth), checked=True)
        if tag == "M" and len(value) == 2 and type(value[1]) is str:
            module = self._modules.get(value[1])
            if module is None:
                self.made.one()
                module = self._modules[value[1]] = types.ModuleType(value[1][: errors.NAME_CHARS])
            return module
        raise wire.WireError(f"an unknown tag {tag!r}")

    def _rebuild(self, value: list, depth: int) -> BaseException:
        parts = errors.read(value)
        if parts.handle is not None:
            raise wire.WireError("an exception claiming to be the judge's")
        args = self.decode(parts.args, depth) if parts.args is not None else [parts.text]
        if type(args) is not list:
            args = [parts.text]
        e = _exception(parts, args, self.made)
        e.__miniray_traceback__ = parts.traceback  # type: ignore[attr-defined]  # miniray shows this text
        if parts.cause is not None:
            cause = self.decode(parts.cause[1], depth)
            if isinstance(cause, BaseException):
                if parts.cause[0] == "c":
                    e.__cause__ = cause
                else:
                    e.cause = cause  # type: ignore[attr-defined]
        return e


class LoadFailed(BaseException):
    """The submission loaded once, then failed to load afresh for a later run (the jail found out
    with the run's first request, inside the scenario): a BaseException, so it leaves the run
    unseen by the scenario's `except Exception`, and the load (jailed.py) reports it."""


class LearnerExit(SystemExit):
    """`sys.exit()` in the learner's code: a task's worker exits (miniray catches SystemExit);
    in the driver it ends the grading with a failure, never the judge."""


def _exception(parts: errors.Parts, args: list, made: proxies.Made) -> BaseException:
    """The judge's object for an exception the jail raised: never a class the jail names freely."""
    if (parts.module, parts.qualname) == ("faultlines.sandbox.inside", "Reload"):
        return LoadFailed(parts.text)
    special = JUDGE_CLASSES.get((parts.module, parts.qualname))
    if special is not None:
        return special(parts.text)
    if parts.module == "builtins":
        cls = errors.builtin(parts.qualname)
        if cls is SystemExit:
            return LearnerExit(*args[:1])
        if cls is not None and issubclass(cls, Exception):
            try:
                return cls(*args)
            except Exception:
                pass
    elif parts.module == "miniray.exceptions" and PLAIN.admits(args):
        cls = EXCEPTIONS.get(parts.qualname)  # miniray's own classes, by identity: built from plain data
        if cls is not None and issubclass(cls, Exception):
            try:
                return cls(*args)
            except Exception:
                pass
    stand_in = made.exception_class(parts.module, parts.qualname, parts.bases)
    try:
        return stand_in(*args)
    except Exception:
        return stand_in(parts.text)


def _update(target: Any, new: Any) -> None:
    if type(target) is dict and type(new) is dict:
        target.clear()
        target.update(new)
    elif type(target) is list and type(new) is list:
        target[:] = new
    elif type(target) is set and type(new) is set:
        target.clear()
        target.update(new)


def _code_map(source: str, filename: str) -> dict[tuple[str, int], types.CodeType]:
    """Every function's code object in the judge's own compile of the source, by name and line:
    for reading (an exercise may check what a function calls), never for running."""
    found: dict[tuple[str, int], types.CodeType] = {}
    try:
        code = budgets.instrument(source, filename)
    except (SyntaxError, ValueError):  # the jail's load says so, in the learner's words
        return found
    stack = [code]
    while stack:
        c = stack.pop()
        found.setdefault((c.co_name, c.co_firstlineno), c)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return found
