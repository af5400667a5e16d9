"""Simulation-only controls, kept apart from Ray's API: the clock, the seed, faults, the log.

import miniray as ray
from miniray import sim
sim.set_seed(7)
sim.kill_node(node, at=5.0)       # a fault on the virtual clock
run = sim.run(scenario, seed=7, faults=[Fault("crash", "f#1/1", step=0)])
run.log_text                      # identical for identical seed, code and faults
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import context
from .copying import shared
from .events import Kind
from .exceptions import BudgetExceeded, SimulationError, Stalled
from .fault_entry import Boundary, FaultKind
from .fault_kinds import KINDS
from .fault_kinds import moves as fault_moves
from .faults import ChoicePoints, Fault, from_helper, parse_token, random_schedule
from .kernel import Kernel, Timer
from .log import EventLog, Record
from .memory import oom_retry_delay_s
from .observe.blob import Blob
from .observe.metrics import metrics
from .outside import read_attribute
from .runtime import Runtime
from .session import SESSION, InitOptions

__all__ = [
    "now",
    "sleep",
    "set_seed",
    "set_budget",
    "schedule",
    "inject",
    "moves",
    "fault_kinds",
    *KINDS,  # one helper per fault kind: kill_node, crash, pause_node, use_memory, ...
    "event_log",
    "log_text",
    "choice_points",
    "run",
    "last_runtime",
    "Run",
    "Attempt",
    "current_attempt",
    "copy_by_value",
    "external",
    "library_code",
    "read_external",
    "on_record",
    "call_at",
    "call_later",
    "Record",
    "Timer",
    "Kind",  # the event catalogue: every record's kind (miniray/events.py)
    # Building blocks for a course's own discrete-event model (the fleet controller): the clock
    # and the log miniray itself runs on.
    "Kernel",
    "EventLog",
    "oom_retry_delay_s",  # Ray's backoff between retries of an OOM-killed task (miniray/memory)
    "Fault",
    "FaultKind",  # a fault kind's entry (miniray/fault_entry.py): a grader makes its moves from it
    "Boundary",
    "ChoicePoints",
    "parse_token",
    "random_schedule",
    "SimulationError",
    "BudgetExceeded",
    "Stalled",
    "metrics",
    "Blob",
]


def _rt() -> Runtime:
    return context.require("using miniray.sim")


def now() -> float:
    """Virtual seconds since the cluster started (journaled inside a body, like time.time)."""
    rt = _rt()
    return context.interact(rt, lambda: rt.now(), "clock")


def sleep(seconds: float) -> None:
    """Let `seconds` of virtual time pass in the driver, running whatever happens meanwhile."""
    _rt().sleep(seconds)


def set_seed(seed: int) -> None:
    """The seed of the next init(): ids and random fault schedules derive from it alone."""
    SESSION.pending.seed = int(seed)


def set_budget(
    max_events: int | None = None, max_virtual_seconds: float | None = None, max_body_lines: int | None = None
) -> None:
    """Event, virtual-time and per-attempt line budgets: a run past one stops with BudgetExceeded."""
    budget = SESSION.pending.budget
    if max_body_lines is not None:
        budget["max_body_lines"] = int(max_body_lines)
    if max_events is not None:
        budget["max_events"] = int(max_events)
    if max_virtual_seconds is not None:
        budget["max_virtual_seconds"] = float(max_virtual_seconds)
    rt = context.current()
    if rt is not None:
        rt.config.update(budget)


def schedule(faults: Iterable[Fault | str]) -> None:
    """Faults for the next init() (or, if a cluster is up, for this one)."""
    parsed = [parse_token(f) if isinstance(f, str) else f for f in faults]
    rt = context.current()
    if rt is None:
        SESSION.pending.faults = parsed
    else:
        for fault in parsed:
            rt.faults.add(fault)


def inject(fault: Fault | str) -> None:
    """Add one fault: to this cluster if one is up, else to the next init()'s schedule."""
    if context.current() is None:
        parsed = parse_token(fault) if isinstance(fault, str) else fault
        if parsed not in SESSION.pending.faults:  # a re-run cell must not stack the same fault twice
            SESSION.pending.faults = [*SESSION.pending.faults, parsed]
    else:
        schedule([fault])


def moves() -> dict[str, str]:
    """The fault kinds a grader's search may inject, by move name ("node_loss": "kill_node"),
    from their entries in miniray/fault_kinds.py."""
    return fault_moves()


def fault_kinds() -> Mapping[str, FaultKind]:
    """Every fault kind's entry (miniray/fault_kinds.py), by name, in the order they are listed:
    its parameters, its move, its words. Read-only."""
    return MappingProxyType(KINDS)


def __getattr__(name: str) -> Callable[..., None]:
    """`sim.kill_node(node, at=...)`, `sim.crash(attempt, step)`, ...: one helper per fault kind,
    made from its entry in miniray/fault_kinds.py (its docstring says what it does)."""
    kind = KINDS.get(name)
    if kind is None:
        raise AttributeError(f"module 'miniray.sim' has no attribute {name!r}")
    return _helper(kind)


def _helper(kind: FaultKind) -> Callable[..., None]:
    """`sim.<name>(...)`: inject this fault into the running cluster, or the next one. Its
    positional arguments are the entry's `helper`; every other parameter is a keyword."""

    def helper(*args: Any, at: float | None = None, **kwargs: Any) -> None:
        inject(from_helper(kind, args, kwargs, at))

    P = inspect.Parameter
    params = [P(p, P.POSITIONAL_OR_KEYWORD) for p in kind.helper]
    params += [
        P(p.helper_name or p.name, P.KEYWORD_ONLY, default=p.default)
        for p in kind.params
        if p.name not in kind.helper
    ]
    if kind.timed:
        params.append(P("at", P.KEYWORD_ONLY, default=None))
    helper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    helper.__name__ = helper.__qualname__ = kind.name
    helper.__doc__ = kind.doc
    return helper


def __dir__() -> list[str]:
    return sorted(__all__)


def event_log() -> list:
    return list(_rt()._log.records)


def log_text() -> str:
    return _rt()._log.text()


@dataclass(frozen=True)
class Attempt:
    """The attempt whose body runs now, as a grader or a debugger sees it from inside the body."""

    key: str  # "f#1/2": the first call of f, second attempt (what a crash fault names)
    position: int  # interactions it has made so far: a crash with step=position strikes next
    pid: int  # its worker's simulated pid
    node: str  # its node's name, "node:1"
    runs: int  # how many times its body has started: more than 1 once it has been replayed


def current_attempt() -> Attempt | None:
    """The attempt running now, or None in the driver (or with no cluster up)."""
    rt = context.current()
    body = rt._current[-1] if rt is not None and rt._current else None
    if body is None:
        return None
    return Attempt(body.key, body.cursor, body.worker.pid, body.worker.node.name, body.runs)


def copy_by_value(module: str) -> None:
    """Treat functions from `module` (and its submodules) as Ray treats `__main__`'s: pickled by
    value, so each simulated worker process gets its own copy of the module-level, closure and
    class-attribute state they use. `__main__` (scripts, notebook cells) always is. Takes effect
    from the next runtime on."""
    SESSION.by_value.add(module)


def external(cls: type) -> type:
    """Class decorator for a stand-in for something outside the cluster (a database, a payment
    API, a checkpoint store): its instances are never copied into a worker's memory or a task's
    arguments, as a client object on Ray reaches the same service from any process. A body's read
    of its data is a journaled call (miniray/outside.py), as a reply from that service would be."""
    cls.__getattribute__ = read_attribute  # type: ignore[assignment, method-assign]
    return shared(cls)


def read_external(obj: Any, name: str) -> Any:
    """A learner's read of `obj.name` (an external object's data) made by other code on its
    behalf (the sandbox's judge, for code in the jail): journaled in a body as if it read it."""
    if type(obj).__getattribute__ is not read_attribute:  # not external: a plain read, as in one process
        return getattr(obj, name)
    return read_attribute(obj, name, learner=True)


def library_code(module: str) -> None:
    """`module` (and its submodules) is not the learner's code: a journal entry's `file:line`
    names the first frame outside it (a grader's services, a course model's helpers)."""
    SESSION.library.add(module)


def on_record(listener: Callable[[Record], None]) -> Callable[[], None]:
    """Call `listener(record)` for each record the active cluster logs from now on. Returns the
    function that stops it. A listener observes: it must not change the run."""
    listeners = _rt()._log.listeners
    listeners.append(listener)

    def stop() -> None:
        if listener in listeners:
            listeners.remove(listener)

    return stop


def call_at(time: float, fn: Callable[..., Any], *args: Any) -> Timer:
    """Run `fn(*args)` at virtual time `time` on the active cluster, as one kernel event (a
    grader starting a second client, a course model's autoscaler). `Timer.cancel()` takes it back."""
    return _rt().call_at(time, fn, *args, label="sim.call_at")


def call_later(delay: float, fn: Callable[..., Any], *args: Any) -> Timer:
    """Run `fn(*args)` `delay` virtual seconds from now on the active cluster, as one kernel event."""
    return _rt().call_later(delay, fn, *args, label="sim.call_later")


def choice_points(rt=None) -> ChoicePoints:
    rt = rt or _rt()
    return ChoicePoints(
        events=rt._kernel.steps,
        attempts=list(rt.faults.attempts),
        nodes=[n.node_id for n in rt.nodes if not n.is_head],
        actors=[f"{a.class_name}#{a.ordinal}" for a in rt.actors.actors.values()],
    )


@dataclass
class Run:
    """The result of one scenario run: what it returned or raised, and what happened."""

    seed: int
    faults: list
    value: Any = None
    error: BaseException | None = None
    log_text: str = ""
    virtual_time: float = 0.0
    events: int = 0
    points: ChoicePoints = field(default_factory=ChoicePoints)
    records: list[Record] = field(default_factory=list)  # the event log, in order
    # Each attempt's calls to the cluster, in order, as (operation, learner's file:line).
    journals: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def token(self) -> str:
        return f"seed={self.seed} faults=[{', '.join(f.token() for f in self.faults)}]"


def last_runtime() -> Runtime | None:
    """The runtime the latest run (or init) built, still readable after it shut down."""
    return SESSION.last


def run(
    scenario: Callable[[], Any],
    *,
    seed: int = 0,
    faults: Iterable[Fault | str] = (),
    max_events: int | None = None,
    max_body_lines: int | None = None,
    log_text: bool = True,
    stop_on: tuple[type[BaseException], ...] = (),
    journal_sites: bool = True,
) -> Run:
    """Run `scenario()` on a fresh runtime under a fault schedule; cheap enough to call per schedule.

    `log_text=False` leaves `Run.log_text` empty: a search over hundreds of schedules formats the
    log only for the run it reports (formatting is about a fifth of a small run's cost).
    `stop_on`: exceptions outside `Exception` (a grader's own budget) that end the run and are
    recorded in `Run.error`, like the scenario's own errors, instead of propagating.
    `journal_sites=False` leaves the learner's file:line out of `Run.journals` (a search's runs).
    """
    context.deactivate()
    schedule_ = [parse_token(f) if isinstance(f, str) else f for f in faults]
    saved = SESSION.pending
    # The run's options, passed explicitly: whichever runtime the scenario starts (init, a Cluster,
    # or the first remote call) is built from these, and the caller's pending options come back after.
    options = InitOptions(seed=seed, faults=schedule_, budget=dict(saved.budget))
    if max_events is not None:
        options.budget["max_events"] = max_events
    if max_body_lines is not None:
        options.budget["max_body_lines"] = max_body_lines
    if not journal_sites:
        options.budget["journal_sites"] = False
    result = Run(seed=seed, faults=schedule_)
    SESSION.pending, SESSION.last = options, None
    try:
        try:
            result.value = scenario()
        except Exception as e:  # the scenario's outcome, recorded rather than raised
            result.error = e
        except stop_on as e:  # a grader's own budget, say: recorded the same way
            result.error = e
        rt = SESSION.last
        if rt is not None:
            if log_text:
                result.log_text = rt._log.text()
            result.virtual_time = rt.now()
            result.events = rt._kernel.steps
            result.points = choice_points(rt)
            result.records = list(rt._log.records)
            result.journals = {key: list(entries) for key, entries in rt.journals.items()}
    finally:
        context.deactivate()
        SESSION.pending = saved
    return result
