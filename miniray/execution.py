"""Running a task or actor-method body on a simulated worker, without threads.

Pyodide has no threads, so a body cannot be parked mid-call. Instead a body that blocks (a
`time.sleep` that other events overlap, a `get` on an object not ready yet) is unwound and later
run again from the start, with every interaction it already made (sleeps, gets, puts, submits,
service calls) answered from its journal, until it gets past the point where it stopped. This is
deterministic replay, the same idea durable-execution engines use. A sleep that nothing overlaps
just moves the clock, so a lone task never replays.

Replaying is only correct for bodies whose effects go through miniray; an actor's own state is
restored from a snapshot taken when the method started. Each journal position is also a fault
choice point: a crash can be injected just before interaction k of a named attempt.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import io
import sys
from collections.abc import Callable
from typing import Any

from .aio import run_coroutine
from .copying import Frozen, thaw
from .events import Kind
from .exceptions import SimulationError
from .isolation import Export
from .journal import JournalEntry, Nondeterministic, learner_site, mismatch_message
from .line_budget import line_counter
from .objects import fresh_error
from .tracebacks import remote_traceback


class Suspended(BaseException):
    """The body blocked: unwind it now, run it again once what it waits for is ready."""


class WorkerExit(BaseException):
    """os._exit() or an injected crash inside a body: the worker process dies here."""

    def __init__(self, reason: str, intended: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.intended = intended  # an actor's own clean exit (sys.exit(0), exit_actor): no restart


# Ray 2.60's words for an actor's own clean exit (exit_actor() or __ray_terminate__).
EXIT_ACTOR_REASON = (
    "Worker exits by an user request. Worker exits with an exit code 0. exit_actor() is called."
)


def exit_of(in_actor: bool, error: SystemExit) -> WorkerExit:
    """Ray's reading of `sys.exit(code)` in a body (recorded in the `process_exit` scenario).

    In an actor method, code 0 is an intended exit (INTENDED_USER_EXIT): the actor dies for good
    and is not restarted. Any other code, None included, is an unexpected exit: the actor is
    restarted within max_restarts. In a task, any exit is a worker crash, retried within
    max_retries.
    """
    code = error.code
    if in_actor and code == 0:
        return WorkerExit("Worker exits by an user request. Worker exits with an exit code 0.", intended=True)
    return WorkerExit(f"Worker exits with an exit code {code}.")


class BodyRun:
    def __init__(
        self,
        rt,
        worker,
        key: str,
        label: str,
        fn: Callable,
        args: tuple,
        kwargs: dict,
        on_return: Callable[[Any], None],
        on_raise: Callable[[BaseException, str], None],
        instance: Any = None,
        export: Export | None = None,
    ):
        self.rt = rt
        self.worker = worker
        self.key = key  # stable name of this attempt, e.g. "f#1/2": the fault schedule's target
        self.label = label  # for worker stdout prefixes, like Ray's "(f pid=...)"
        self.fn = fn
        self.args = args  # frozen values (miniray/copying.py): each run thaws its own copy
        self.kwargs = kwargs
        self.frozen_args = Frozen in set(map(type, args)) or Frozen in set(map(type, kwargs.values()))
        self.on_return = on_return
        self.on_raise = on_raise
        self.instance = instance
        self.export = export  # the learner state its process has its own copy of (miniray/isolation)
        self.snapshot = None
        self.memory_at_start: list | None = None  # the process's copy as the attempt began
        self.journal: list[JournalEntry] = []
        self.sites: list[tuple[str, str]] = []  # (op, file:line) of each entry: kept after it ends
        self.asking: tuple[str, str] = ("", "")  # the call that blocked, answered by `resume`
        self.calling = 0
        self.cursor = 0
        self.emitted = 0
        self.live = True
        self.unwinding: WorkerExit | Suspended | None = None  # set once the body must stop
        self.out_mark = -1  # where its output ended when it began to unwind
        self.out: io.StringIO | None = None
        self.waiting: str = ""  # what it is blocked on, for the stall diagnosis
        self.timers: list = []
        self.crash_step = rt.faults.crash_step(key)
        self.step_fault = rt.faults.step_fault(key)  # e.g. the caller's cancel, before a step
        self.runs = 0
        self.lines = 0  # user-code lines executed, across replays, when a line budget is set
        self.streaming = False  # set by a streaming generator body (miniray/generators.py)

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.instance is not None:
            try:
                self.snapshot = copy.deepcopy(self.instance.__dict__)
            except Exception:
                self.snapshot = None
        if self.export is not None:
            self.memory_at_start = self.worker.space.snapshot(self.export)
        self.worker.body = self
        self.rt.journals[self.key] = self.sites
        self._run()

    def stop(self) -> None:
        """The worker died: this attempt never continues."""
        self.live = False
        for t in self.timers:
            t.cancel()
        self.timers = []

    def _run(self) -> None:
        if not self.live or not self._may_run():
            return
        self._begin()
        outcome, intended = self._execute()
        # Once it began to unwind (blocked, or a crash struck), that decides how the run ended,
        # whatever its cleanup did afterwards: raised something else, or swallowed the signal.
        stop = self.unwinding
        if isinstance(stop, Suspended):
            outcome = None
        elif isinstance(stop, WorkerExit):
            outcome, intended = ("exit", stop.reason), stop.intended
        if outcome is not None:
            self._end(outcome, intended)

    def _may_run(self) -> bool:
        """Can the body run now? A paused node runs it once it resumes; a hung process never."""
        worker = self.worker
        node = worker.node
        if node.frozen_until > self.rt.now():  # a paused node runs nothing until it resumes
            self.timers.append(self.rt.call_at(node.frozen_until, self._run))
            return False
        if worker.stalled:  # a hung process (stall_actor): the call never goes on, nor returns
            self.waiting = "a stalled process"
            return False
        if self.rt.lending.loans:  # its get returned: the CPU it lent (if it did) comes back first
            task = worker.task
            if task is not None:
                self.rt.lending.reclaim(task)
        return True

    def _begin(self) -> None:
        """A re-run starts from the attempt's start, as the first run did."""
        if self.runs:
            if self.instance is not None and self.snapshot is not None:
                self.instance.__dict__.clear()
                self.instance.__dict__.update(copy.deepcopy(self.snapshot))
            if self.export is not None and self.memory_at_start is not None:
                self.worker.space.restore(self.export, self.memory_at_start)
        self.runs += 1
        self.cursor = 0
        self.waiting = ""
        self.unwinding = None
        self.out_mark = -1

    def _execute(self) -> tuple[tuple[str, Any] | None, bool]:
        """Run the body once, in its process's space, its output captured: (how it ended, or None
        if it blocked; whether an exit was the actor's intended one)."""
        export, space = self.export, self.worker.space
        buf = self.out = io.StringIO()
        saved_stdout = sys.stdout
        self.rt._current.append(self)
        sys.stdout = buf
        outcome: tuple[str, Any] | None = None
        intended = False
        budget = self.rt.config.get("max_body_lines")
        saved_trace = sys.gettrace() if budget else None
        saved_memory = space.enter(export) if export is not None else None
        try:
            if budget:
                sys.settrace(line_counter(self, budget))
            outcome = ("return", self._call())
        except Suspended:
            outcome = None
        except WorkerExit as e:
            outcome, intended = ("exit", e.reason), e.intended
        except Nondeterministic as e:
            outcome = ("nondeterministic", str(e))
        except SystemExit as e:  # sys.exit() ends this worker, not the program, as in Ray
            ended = exit_of(self.worker.actor is not None, e)
            outcome, intended = ("exit", ended.reason), ended.intended
        except (Exception, asyncio.CancelledError) as e:  # the user's: RayTaskError(...) for the caller
            outcome = ("raise", (e, remote_traceback(e)))
            # As in Ray, the cause reaches the caller as text plus the exception, not its frames.
            # Kept, they would hold every frame below and above (the driver's `get`, its refs) in a
            # cycle, so refs would be freed whenever the garbage collector ran: not replayable.
            e.__traceback__ = None
        finally:
            if budget:
                sys.settrace(saved_trace)
            if export is not None:
                space.leave(export, saved_memory)
            sys.stdout = saved_stdout
            self.rt._current.pop()
            text = buf.getvalue()
            self._flush(text if self.out_mark < 0 else text[: self.out_mark])
            self.out = None
        return outcome, intended

    def _call(self) -> Any:
        """The learner's function itself, on this run's copies of its arguments."""
        if self.frozen_args:  # each run thaws its own copies: a re-run sees them unchanged
            result = self.fn(*[thaw(a) for a in self.args], **{k: thaw(v) for k, v in self.kwargs.items()})
        else:
            result = self.fn(*self.args, **self.kwargs)
        if inspect.iscoroutine(result):  # an async actor method (miniray/aio.py)
            result = run_coroutine(result)
        if self.unwinding is None and self.crash_step is not None and self.crash_step == self.cursor:
            # The same words as a crash between two steps: `step=N` strikes before step N, and
            # a body that made N steps has none left, so this is its return.
            raise WorkerExit(f"injected crash before step {self.cursor} of {self.key}, as it returns")
        self._strike_before(self.cursor)  # a fault at `step=N` of a body that made N steps: its return
        return result

    def _end(self, outcome: tuple[str, Any], intended: bool) -> None:
        """Done for good: drop what it held (arguments, journaled answers, the actor snapshot), so
        a lingering reference to this run (a wake-up still registered somewhere) pins no refs;
        then hand its result, its error or its worker's exit on."""
        self.live = False
        self.args, self.kwargs, self.journal, self.snapshot = (), {}, [], None
        self.memory_at_start = None
        self.worker.body = None
        self.rt.faults.record_attempt(self.key, self.cursor)
        kind, value = outcome
        if kind == "return":
            self.on_return(value)
        elif kind == "raise":
            self.on_raise(*value)
        elif kind == "nondeterministic":
            raise NondeterministicBody(value)
        else:
            self.rt.emit(
                Kind.WORKER_EXIT,
                worker=self.worker.pid,
                node=self.worker.node.name,
                attempt=self.key,
                reason=value,
            )
            if self.worker.actor is not None:  # read by ActorManager.process_died: Ray's words for it
                self.worker.actor.exit_detail = value
            self.rt.kill_worker(self.worker, cause="intended_exit" if intended else "exit")

    def _flush(self, text: str) -> None:
        new = text[self.emitted :]
        self.emitted = max(self.emitted, len(text))
        if not new:
            return
        prefix = f"({self.label} pid={self.worker.pid}) "
        lines = new.splitlines(keepends=True)
        sys.stdout.write("".join(prefix + line for line in lines))
        if not new.endswith("\n"):
            sys.stdout.write("\n")

    # -- interactions (each one a journal entry and a fault choice point) ----------------------
    def interact(self, live: Callable[[], Any], op: str) -> Any:
        """Make one call to the cluster (`op` names it: "get", "submit f", ...), or answer it from
        the journal on a re-run. Nothing reaches the cluster once the body is unwinding."""
        if self.unwinding is not None:
            raise self._again()
        cursor = self.cursor
        if cursor < len(self.journal):
            entry = self.journal[cursor]
            if entry.op != op:
                raise Nondeterministic(mismatch_message(self.key, cursor, entry, op, self._site(always=True)))
            self.cursor = cursor + 1
            if entry.ok:
                return entry.value
            # A copy per raise: the raised one's traceback holds this frame, hence self and the
            # journal; raising the journaled instance would make a cycle only the GC frees.
            raise fresh_error(entry.value)
        if self.crash_step is not None and self.crash_step == cursor:
            raise self.halt(WorkerExit(f"injected crash before step {cursor} of {self.key}"))
        self._strike_before(cursor)
        site = self._site()
        self.asking = (op, site)
        self.calling += 1  # what the call itself reads of a service is the call's (miniray/outside.py)
        try:
            value = live()
        except (Suspended, WorkerExit) as signal:
            raise self.halt(signal) from None
        except Exception as e:
            self._record(op, site, False, fresh_error(e))
            raise
        finally:
            self.calling -= 1
        self._record(op, site, True, value)
        return value

    def _strike_before(self, cursor: int) -> None:
        """A fault other than a crash due before this step (the caller's cancel): the body stops
        here, the fault strikes from the event loop, as a call from outside would, and the body
        runs on only if the fault left it alive."""
        fault = self.step_fault
        if fault is None or fault.step != cursor:
            return
        self.step_fault = None

        def strike() -> None:
            self.rt.faults.apply(fault)
            if self.live and self.worker.body is self:
                self._run()

        self.waiting = "a fault"
        self.timers.append(self.rt.call_later(0.0, strike, label="fault"))
        raise self.halt(Suspended())

    def _site(self, always: bool = False) -> str:
        if not (always or self.rt.config["journal_sites"]):
            return ""
        library, prefixes = self.rt.library
        return learner_site(library, prefixes, _RUN_CODE)

    def _record(self, op: str, site: str, ok: bool, value: Any) -> None:
        self.journal.append(JournalEntry(op, site, ok, value))
        self.sites.append((op, site))
        self.cursor += 1

    def halt(self, signal: WorkerExit | Suspended) -> WorkerExit | Suspended:
        """The body must stop here: from now on its cleanup (`finally`, `with`) reaches nothing,
        and what it prints is dropped, so a re-run does not repeat an effect."""
        if self.unwinding is None:
            # A fresh instance: the raised one's traceback holds the body's frames (and through
            # them this run), a cycle only the garbage collector would break.
            self.unwinding = (
                WorkerExit(signal.reason, signal.intended) if isinstance(signal, WorkerExit) else Suspended()
            )
            if self.out is not None:
                self.out_mark = self.out.tell()  # written sequentially: the position is the length
        return signal

    def _again(self) -> BaseException:
        """What a call made while unwinding raises: the same stop, again."""
        stop = self.unwinding
        if isinstance(stop, WorkerExit):
            return WorkerExit(stop.reason, stop.intended)
        return Suspended()

    def block(self, waiting: str) -> None:
        """Called by a live interaction that must wait: the answer arrives through `resume`."""
        self.waiting = waiting
        raise Suspended()

    def resume(self, ok: bool, value: Any) -> None:
        """What the body waited for is ready: journal the answer and run the body again."""
        if not self.live:
            return
        self.timers = []
        op, site = self.asking
        self.journal.append(JournalEntry(op, site, ok, value))
        self.sites.append((op, site))
        self.rt.call_later(0.0, self._run, label="resume")

    def sleep(self, seconds: float) -> None:
        rt = self.rt

        def live() -> None:
            wake = rt.now() + max(0.0, float(seconds))
            # A streaming generator's sleeps are real events (miniray/generators.py): the
            # driver may be watching its next item arrive, so the clock must not jump past it.
            if not self.streaming and rt.advance_quietly(wake):  # nothing happens meanwhile
                return None
            self.timers.append(rt.call_at(wake, self.resume, True, None, label="wake"))
            self.block(f"time.sleep({seconds})")

        self.interact(live, "sleep")


# Where a body's own frames end: a journal entry's site is looked for above this frame only.
_RUN_CODE = BodyRun._run.__code__


class NondeterministicBody(SimulationError):
    """A re-run body asked a different operation than its journal holds (see miniray/journal.py)."""
