"""`Reading`: one run read once, and the questions the course asks of it.

A reading holds a run's records (a finished `sim.Run`'s, or a live list a scenario's run is still
adding to), its schedule and journals. Its views are made once, when first asked for: the events
(fold.py: each record's sentence and the state tables' changes) with the event axis's lanes, and
the time axis's lanes (spans.py). Its questions (attempts of a task, the states of an actor, what
a node was doing at t, the fault a token names) read the records through the table, so nothing
outside this package compares kinds; on a live list they answer for the records so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from miniray import sim
from miniray.sim import Kind

from . import table
from .fold import Event, faults_of, fold
from .lanes import Lanes, Spans
from .spans import time_lanes
from .state import Tables, split_attempt
from .table import ERROR, FAILED, OK, OPENS, Lane, Strike

FINISHED, RAISED, DIED = "finished", "raised", "died"
_HOW = {OK: FINISHED, ERROR: RAISED, FAILED: DIED}


@dataclass(frozen=True)
class Attempt:
    """One attempt of a task, from its start and Ray's verdict on it."""

    key: str  # "fetch#3/2": the third call of fetch, its second attempt
    task: str  # "fetch"
    node: str = ""
    worker: int | None = None
    started: float | None = None  # virtual time; None if it never started
    ended: float | None = None  # when Ray judged it (returned, raised, died); None: it had not
    end_index: int = -1  # that record's index in the run's log (`Record.index`)
    how: str = ""  # FINISHED | RAISED | DIED, "" while it runs
    retry: bool = False  # Ray runs it again
    error: str = ""  # what it raised (a class name)
    cause: str = ""  # why it died

    @property
    def call(self) -> str:
        return split_attempt(self.key)[0]

    @property
    def ordinal(self) -> int:
        return int(self.call.rsplit("#", 1)[1])

    @property
    def number(self) -> int:
        return split_attempt(self.key)[1]

    @property
    def final(self) -> bool:
        """It failed, and Ray gave up on its call: no retry left."""
        return self.how in (RAISED, DIED) and not self.retry


@dataclass(frozen=True)
class NodeAt:
    """What a node was doing at one moment."""

    state: str  # alive | paused | dead | "" (not in the cluster yet)
    running: tuple[str, ...]  # attempts running there


def entered(record: Any) -> tuple[Lane, str, str] | None:
    """The state a record puts a node, an actor or a group in, as (lane, which, state): a
    node.died record gives (Lane.NODES, "node:1", "dead"). None for any other record."""
    row = table.of(record.kind)
    if row.lane not in (Lane.NODES, Lane.ACTORS, Lane.GROUPS):
        return None
    state = row.drawn(record.fields)
    return None if state is None else (row.lane, str(record.fields[row.lane.key]), state)


def _opens(row: table.Row) -> bool:
    return row.lane is Lane.TASKS and row.draws == OPENS


def _ends(row: table.Row) -> bool:
    return row.lane is Lane.TASKS and row.draws is not None and row.draws != OPENS


def _drawn_on_tasks(row: table.Row) -> bool:
    return row.lane is Lane.TASKS and row.draws is not None


def _struck(row: table.Row) -> bool:
    return row.strike is not Strike.NO


def _unshown(row: table.Row) -> bool:
    return row.noise or row.strike is Strike.OF_FAULT


def _placeless(row: table.Row) -> bool:
    return row.lane is Lane.OBJECTS or row.strike is not Strike.NO


class Running:
    """The attempts running as a run goes on, fed each record as it is logged (a listener)."""

    def __init__(self) -> None:
        self._where: dict[str, str] = {}  # attempt -> its node
        self._opens, self._ends = table.where(_opens), table.where(_ends)
        self._busy: tuple[str, ...] | None = ()

    def see(self, record: Any) -> tuple[str, ...]:
        """Take in one record; the nodes running an attempt after it, sorted."""
        kind = record.kind
        if kind in self._opens:
            self._where[record.fields["attempt"]] = record.fields["node"]
            self._busy = None
        elif kind in self._ends:
            self._where.pop(record.fields["attempt"], None)
            self._busy = None
        if self._busy is None:  # most records start or end nothing: the answer stands
            self._busy = tuple(sorted(set(self._where.values())))
        return self._busy


def _matches(record: Any, where: Mapping[str, Any]) -> bool:
    fields = record.fields
    return all(fields.get(k) == v for k, v in where.items())


class Reading:
    def __init__(
        self,
        records: Sequence[Any],
        faults: Iterable[str] = (),
        journals: Mapping[str, list[tuple[str, str]]] | None = None,
        end: float | None = None,
    ) -> None:
        self.records = records
        self.faults = tuple(faults)
        self.journals = {k: list(v) for k, v in (journals or {}).items()}
        self.end = end  # the run's virtual time when it ended, if known
        self._attempts: tuple[int, list[Attempt]] = (-1, [])  # (records read, the attempts then)

    @classmethod
    def of_run(cls, run: sim.Run, faults: Iterable[str] | None = None) -> Reading:
        """A finished run; `faults`: its schedule as tokens (by default, its miniray faults')."""
        tokens = [f.token() for f in run.faults] if faults is None else faults
        return cls(run.records, tokens, run.journals, run.virtual_time)

    # -- the views, each made once ---------------------------------------------------------------
    @cached_property
    def _folded(self) -> tuple[list[Event], Tables, Spans]:
        return fold(self.records, self.faults)

    @property
    def events(self) -> list[Event]:
        """The run's events, a record each (a fault's own doing joins its fault's)."""
        return self._folded[0]

    @property
    def tables(self) -> Tables:
        """The state tables after the last event."""
        return self._folded[1]

    @property
    def spans(self) -> Spans:
        """The lanes on the event axis (the debugger's picture)."""
        return self._folded[2]

    @cached_property
    def lanes(self) -> Lanes:
        """The lanes on the time axis (a lesson's timeline)."""
        return time_lanes(self.records, self.end)

    # -- what a learner is shown -------------------------------------------------------------------
    def shown(self, hidden_kinds: Iterable[str] = ()) -> list[Any]:
        """The records worth reading in a report's timeline: no bookkeeping, nothing a fault did
        at once (its own line says it), no kind the exercise leaves out."""
        skip = table.where(_unshown).union(hidden_kinds)
        return [r for r in self.records if r.kind not in skip]

    def landmarks(self, before: int | None = None) -> list[Any]:
        """Records that say where the run was (for placing a fault after one): no object store
        traffic, no fault and nothing it did at once; of the first `before` records only."""
        records = self.records if before is None else self.records[:before]
        skip = table.where(_placeless)
        return [r for r in records if r.kind not in skip]

    def unstruck(self) -> list[int]:
        """Indices of the records a run's state is made of: all but a fault striking and what it
        did at once (two schedules that strike at other moments but lead to the same run are one
        state to a search)."""
        struck = table.where(_struck)
        return [i for i, r in enumerate(self.records) if r.kind not in struck]

    def unstruck_lines(self, lines: Sequence[str]) -> list[str]:
        """Of `lines`, one per record, those of `unstruck()`'s records."""
        struck = table.where(_struck)
        return [line for r, line in zip(self.records, lines) if r.kind not in struck]

    # -- questions ---------------------------------------------------------------------------------
    def of(self, *kinds: str, **where: Any) -> list[Any]:
        """The records of these kinds (all, if none given) whose fields equal `where`'s."""
        wanted = frozenset(kinds)
        return [r for r in self.records if (not wanted or r.kind in wanted) and _matches(r, where)]

    def without(self, *kinds: str) -> list[Any]:
        """The records of every kind but these, in order."""
        unwanted = frozenset(kinds)
        return [r for r in self.records if r.kind not in unwanted]

    def first(self, kind: str, **where: Any) -> Any | None:
        return next((r for r in self.records if r.kind == kind and _matches(r, where)), None)

    def count(self, kind: str, **where: Any) -> int:
        return len(self.of(kind, **where))

    def attempts(self, task: str | None = None) -> list[Attempt]:
        """Every task attempt (of the function `task`, if given), in the order the log first
        names it, with its start and Ray's verdict on it."""
        if self._attempts[0] != len(self.records):  # the records are only ever added to
            self._attempts = (len(self.records), self._all_attempts())
        every = self._attempts[1]
        return list(every) if task is None else [a for a in every if a.task == task]

    def _all_attempts(self) -> list[Attempt]:
        found: dict[str, Attempt] = {}
        drawn_on_tasks = table.where(_drawn_on_tasks)
        for r in self.records:
            if r.kind not in drawn_on_tasks:
                continue
            drawn = table.of(r.kind).drawn(r.fields) or ""
            f = r.fields
            key = str(f["attempt"])
            known = found.get(key) or Attempt(key, str(f.get("task", "")))
            if drawn == OPENS:
                found[key] = Attempt(key, known.task, str(f["node"]), f["worker"], r.time)
            elif known.ended is None:
                how = _HOW[drawn]
                found[key] = Attempt(
                    key, known.task, known.node or str(f.get("node", "")), known.worker, known.started,
                    r.time, r.index, how, bool(f.get("retry")), str(f.get("error", "")), str(f.get("cause", "")),
                )  # fmt: skip
        return list(found.values())

    def given_up(self) -> list[Attempt]:
        """The attempts whose failure was final (Ray gave their call up), in the order it did."""
        return sorted((a for a in self.attempts() if a.final), key=lambda a: a.end_index)

    def actor_states(self, actor: str | None = None) -> list[str]:
        """The states actors went through (one actor's, if given), in order."""
        where = {} if actor is None else {"actor": actor}
        return [str(r.fields["state"]) for r in self.of(Kind.ACTOR_STATE, **where)]

    def doing(self, node: str, t: float) -> NodeAt:
        """What `node` was doing at virtual time `t`: its state and the attempts running there."""
        states: list[str] = []
        running: dict[str, None] = {}
        for r in self.records:
            if r.time > t:
                break
            row = table.of(r.kind)
            if r.fields.get("node") != node:
                continue
            drawn = row.drawn(r.fields)
            if row.lane is Lane.NODES and drawn is not None:
                states.append(drawn)
            elif row.lane is Lane.TASKS and drawn == OPENS:
                running[str(r.fields["attempt"])] = None
            elif row.lane is Lane.TASKS and drawn is not None:
                running.pop(str(r.fields["attempt"]), None)
        return NodeAt(states[-1] if states else "", tuple(running))

    def made(self) -> list[tuple[Lane, str]]:
        """The tasks and actors the run made, in the order the driver made them: (Lane.TASKS,
        the function's name) for a submission, (Lane.ACTORS, the actor) for a creation."""
        made = self.of(Kind.TASK_SUBMIT, Kind.ACTOR_CREATE)
        return [
            (Lane.TASKS, str(r.fields.get("task", "")))
            if r.kind == Kind.TASK_SUBMIT
            else (Lane.ACTORS, str(r.fields.get("actor", "")))
            for r in made
        ]

    def struck(self, token: str) -> Any | None:
        """The record of the fault `token` striking, or None if it never did."""
        return self.first(Kind.FAULT, fault=token)

    def service_calls(self, attempt: str) -> list[int]:
        """The events at which `attempt` called a service, in order."""
        return [
            e.index
            for e in self.events
            if table.of(e.kind).lane is Lane.SERVICES and e.fields.get("attempt") == attempt
        ]

    def final_failures(self) -> list[int]:
        """The events at which a failure was final: a task that died or raised with no retry
        left, an actor dead for good."""
        return [e.index for e in self.events if table.of(e.kind).is_final(e.fields)]

    def never_struck(self) -> list[str]:
        """The schedule's faults that strike but did not in this run (their attempt or moment
        never came). A standing declaration (use_memory) and a grader's own move (a second
        client) log no strike of their own, so they are not among them."""
        struck = {e.fault for e in self.events if e.fault}
        return [t for t, fault in faults_of(self.faults) if fault.entry.declare is None and t not in struck]
