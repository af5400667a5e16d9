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

import copy
import inspect
import io
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

from .aio import run_coroutine
from .events import Kind
from .objects import fresh_error


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
    ):
        self.rt = rt
        self.worker = worker
        self.key = key  # stable name of this attempt, e.g. "f#1/2": the fault schedule's target
        self.label = label  # for worker stdout prefixes, like Ray's "(f pid=...)"
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.on_return = on_return
        self.on_raise = on_raise
        self.instance = instance
        self.snapshot = None
        self.journal: list[tuple[bool, Any]] = []
        self.cursor = 0
        self.emitted = 0
        self.live = True
        self.waiting: str = ""  # what it is blocked on, for the stall diagnosis
        self.timers: list = []
        self.crash_step = rt.faults.crash_step(key)
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
        self.worker.body = self
        self._run()

    def stop(self) -> None:
        """The worker died: this attempt never continues."""
        self.live = False
        for t in self.timers:
            t.cancel()
        self.timers = []

    def _run(self) -> None:
        if not self.live:
            return
        node = self.worker.node
        if node.frozen_until > self.rt.now():  # a paused node runs nothing until it resumes
            self.timers.append(self.rt.call_at(node.frozen_until, self._run))
            return
        if self.runs and self.instance is not None and self.snapshot is not None:
            self.instance.__dict__.clear()
            self.instance.__dict__.update(copy.deepcopy(self.snapshot))
        self.runs += 1
        self.cursor = 0
        self.waiting = ""
        buf = io.StringIO()
        saved_stdout = sys.stdout
        self.rt.current.append(self)
        sys.stdout = buf
        outcome: tuple[str, Any] | None = None
        intended = False
        budget = self.rt.config.get("max_body_lines")
        saved_trace = sys.gettrace() if budget else None
        try:
            if budget:
                sys.settrace(_line_counter(self, budget))
            result = self.fn(*self.args, **self.kwargs)
            if inspect.iscoroutine(result):  # an async actor method (miniray/aio.py)
                result = run_coroutine(result)
            if self.crash_step is not None and self.crash_step == self.cursor:
                raise WorkerExit(f"injected crash after step {self.cursor} of {self.key}")
            outcome = ("return", result)
        except Suspended:
            outcome = None
        except WorkerExit as e:
            outcome, intended = ("exit", e.reason), e.intended
        except SystemExit as e:  # sys.exit() ends this worker, not the program, as in Ray
            ended = exit_of(self.worker.actor is not None, e)
            outcome, intended = ("exit", ended.reason), ended.intended
        except Exception as e:  # the user's exception: becomes RayTaskError(...) for the caller
            outcome = ("raise", (e, _remote_traceback(e)))
            # As in Ray, the cause reaches the caller as text plus the exception, not its frames.
            # Kept, they would hold every frame below and above (the driver's `get`, its refs) in a
            # cycle, so refs would be freed whenever the garbage collector ran: not replayable.
            e.__traceback__ = None
        finally:
            if budget:
                sys.settrace(saved_trace)
            sys.stdout = saved_stdout
            self.rt.current.pop()
            self._flush(buf.getvalue())
        if outcome is None:
            return
        self.live = False
        # Done for good: drop what it held (arguments, journaled answers, the actor snapshot), so
        # a lingering reference to this run (a wake-up still registered somewhere) pins no refs.
        self.args, self.kwargs, self.journal, self.snapshot = (), {}, [], None
        self.worker.body = None
        self.rt.faults.record_attempt(self.key, self.cursor)
        kind, value = outcome
        if kind == "return":
            self.on_return(value)
        elif kind == "raise":
            self.on_raise(*value)
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
        self.emitted = len(text)
        if not new:
            return
        prefix = f"({self.label} pid={self.worker.pid}) "
        lines = new.splitlines(keepends=True)
        sys.stdout.write("".join(prefix + line for line in lines))
        if not new.endswith("\n"):
            sys.stdout.write("\n")

    # -- interactions (each one a journal entry and a fault choice point) ----------------------
    def interact(self, live: Callable[[], Any]) -> Any:
        if self.cursor < len(self.journal):
            ok, value = self.journal[self.cursor]
            self.cursor += 1
            if ok:
                return value
            # A copy per raise: the raised one's traceback holds this frame, hence self and the
            # journal; raising the journaled instance would make a cycle only the GC frees.
            raise fresh_error(value)
        if self.crash_step is not None and self.crash_step == self.cursor:
            raise WorkerExit(f"injected crash before step {self.cursor} of {self.key}")
        try:
            value = live()
        except (Suspended, WorkerExit):
            raise
        except Exception as e:
            self.journal.append((False, fresh_error(e)))
            self.cursor += 1
            raise
        self.journal.append((True, value))
        self.cursor += 1
        return value

    def block(self, waiting: str) -> None:
        """Called by a live interaction that must wait: the answer arrives through `resume`."""
        self.waiting = waiting
        raise Suspended()

    def resume(self, ok: bool, value: Any) -> None:
        """What the body waited for is ready: journal the answer and run the body again."""
        if not self.live:
            return
        self.timers = []
        self.journal.append((ok, value))
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

        self.interact(live)


class LineBudgetExceeded(BaseException):
    """Raised inside a body past its line budget; BaseException so `except Exception` can't eat it."""


def _line_counter(body: BodyRun, budget: int):
    """A trace function counting lines of user code only, so the count is the same everywhere."""
    package = __name__.rsplit(".", 1)[0]

    def local(frame, event, arg):
        if event == "line":
            body.lines += 1
            if body.lines > budget:
                raise LineBudgetExceeded(
                    f"line budget exhausted: {body.key} ran more than {budget} lines "
                    f"(max_body_lines). Does a loop in it never end? Raise the budget with "
                    f"miniray.sim.set_budget(max_body_lines=...) if the work is just long."
                )
        return local

    def global_(frame, event, arg):
        if frame.f_globals.get("__name__", "").startswith(package):
            return None
        return local

    return global_


# Formatted tracebacks by (exception, frames). A grader runs one failing body hundreds of times,
# and formatting is most of such a run's cost: Python (3.11 and more so 3.13+) re-reads and
# re-parses each frame's line to place its carets. The text depends only on the key (a code
# object and its instruction offset fix the line and the carets), so the cache changes no output.
_TRACEBACK_TEXT: dict[tuple, str] = {}
_TRACEBACK_CACHE_SIZE = 512


def _remote_traceback(e: BaseException) -> str:
    """The traceback as the caller should see it: the user's frames, not miniray's."""
    relayed = getattr(e, "__miniray_traceback__", None)
    if isinstance(relayed, str):  # raised in another process, which formatted the user's frames
        return relayed
    tb = e.__traceback__
    # Drop miniray's own frames before the user's (BodyRun._run, a generator task's wrapper).
    package = os.path.dirname(os.path.abspath(__file__))
    while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename.startswith(package):
        tb = tb.tb_next
    key = _traceback_key(e, tb)
    text = _TRACEBACK_TEXT.get(key) if key is not None else None
    if text is None:
        lines = traceback.format_exception(type(e), e, tb)
        if lines and lines[0].startswith("Traceback"):  # Ray's text starts at the user's first frame
            lines = lines[1:]
        text = "".join(lines)
        if key is not None and _TRACEBACK_CACHE_SIZE:  # a size of 0 turns the cache off (bench)
            if len(_TRACEBACK_TEXT) >= _TRACEBACK_CACHE_SIZE:
                _TRACEBACK_TEXT.clear()
            _TRACEBACK_TEXT[key] = text
    return text


def _traceback_key(e: BaseException, tb: Any) -> tuple | None:
    """What a traceback's text depends on, or None when it depends on more (a chained exception)."""
    if e.__cause__ is not None or (e.__context__ is not None and not e.__suppress_context__):
        return None
    if getattr(e, "__notes__", None):
        return None
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    try:
        message = str(e)
    except Exception:  # a user exception whose __str__ fails: format it the slow way
        return None
    return (type(e), message, tuple(frames))
