"""A run's lanes, in the two shapes the course draws them: plain data, built by spans.py.

- On the time axis (`Lanes`): one row per worker process that ran something, in the order Ray's
  timeline sorts them (node, then pid), each task attempt or actor creation a bar that says how
  it ended, and the faults, node deaths and removals as marks: lesson timelines and their text.
- On the event axis (`Spans`): the debugger's picture, where event n is a step of the run:
  each node's states, its workers' attempt bars, the actors' and groups' states, the object
  copies reads made and the marks a record's row asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .table import ERROR, FAILED, OK, OPEN

__all__ = ["ERROR", "FAILED", "OK", "OPEN", "Bar", "Lanes", "Mark", "Row", "Spans", "AttemptSpan"]


# -- the time axis ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bar:
    label: str  # "square#5/2": the call and its attempt
    start: float  # virtual seconds
    end: float
    kind: str  # ok | failed (the worker or node died) | error (the body raised) | unfinished
    retry: bool = False  # a second or later attempt of the same call
    reconstruction: bool = False  # re-run to rebuild a lost object (lineage)
    outcome: str = ""

    @property
    def ok(self) -> bool:
        """It ended well: the attempt returned, the actor came up."""
        return self.kind == OK


@dataclass(frozen=True)
class Mark:
    time: float
    label: str  # "kill_node node:1", "node:1 died", ...


@dataclass(frozen=True)
class Row:
    name: str  # "node:1 worker 10002"
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class Lanes:
    rows: tuple[Row, ...]
    marks: tuple[Mark, ...] = field(default=())
    end: float = 0.0  # the last time anything happened

    def bars(self) -> list[Bar]:
        return [bar for row in self.rows for bar in row.bars]

    def attempts(self) -> int:
        return len(self.bars())

    def failed(self) -> list[Bar]:
        return [bar for bar in self.bars() if not bar.ok]


def outcome_kind(outcome: str) -> str:
    """A bar's kind from how its slice ended ("FINISHED", "error: ValueError", "unfinished", ...)."""
    if outcome in ("FINISHED", "ALIVE"):
        return OK
    if outcome.startswith("error"):
        return ERROR
    if outcome == "unfinished":
        return OPEN
    return FAILED


# -- the event axis --------------------------------------------------------------------------------
@dataclass(frozen=True)
class AttemptSpan:
    attempt: str  # "clean#2/1"
    worker: str  # its worker's pid
    start: int  # the event it started at
    end: int  # one past the event Ray judged it at (task.finish, .error, .fail); the run's end if none
    kind: str  # OK | FAILED | ERROR | OPEN


@dataclass
class Spans:
    events: int = 0
    # node -> (event, the state it entered), nodes in the order the run first names them
    nodes: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    workers: dict[str, list[str]] = field(default_factory=dict)  # node -> its workers' pids, by first use
    attempts: list[AttemptSpan] = field(default_factory=list)  # in the order they ended
    actors: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    groups: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    # (event, object, the node of its first copy or "", the reader's node)
    copies: list[tuple[int, str, str, str]] = field(default_factory=list)
    marks: list[tuple[int, str, str]] = field(default_factory=list)  # (event, lane row, sentence)
