"""Violations as data: what an invariant says when it breaks, and the event at which it broke.

An invariant returns `Broken(detail, attempts=..., at=..., final=..., evidence=...)` (or, as
before, the detail alone); the grader names it, `Violation(name, broken)`. A violation reads as
the pair (name, detail) wherever one is expected (a report, the CLI's replay), and carries what
the run shows of it, so a debugger marks the moment it broke without reading its prose:

- `at`: the index (in the run's log) of the record at which it broke, when the invariant knows it
  (a stream invariant, which watches every record, always does);
- `attempts`: the attempts that broke it ("charged by process_order#1/1, process_order#1/2"): it
  broke when the last of them made its first call to a service;
- `final`: it is a failure Ray gave up on (the run raised): it broke at the last failure that
  was final (a task that died or raised with no retry left, an actor dead for good);
- none of these: it was judged when the run ended.

`evidence`: facts about this run a hint can require (exercise.toml's `evidence`), as the
checks' `evidence_for` functions give, named by the invariant that saw them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .reading import Reading


@dataclass(frozen=True)
class Broken:
    """What an invariant returns when it breaks: its detail in words, and what the run shows."""

    detail: str
    attempts: tuple[str, ...] = ()
    at: int | None = None
    final: bool = False
    evidence: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "attempts", tuple(self.attempts))
        object.__setattr__(self, "evidence", frozenset(self.evidence))


class Violation(tuple[str, str]):
    """A broken invariant: the pair (name, detail), with what the run shows of it (`broken`)."""

    broken: Broken

    def __new__(cls, name: str, broken: Broken | str) -> Violation:
        self = super().__new__(cls, (name, broken.detail if isinstance(broken, Broken) else broken))
        self.broken = broken if isinstance(broken, Broken) else Broken(broken)
        return self

    @property
    def name(self) -> str:
        return self[0]

    @property
    def detail(self) -> str:
        return self[1]

    def __reduce__(self):  # pickled as it was made (a tuple subclass would lose `broken`)
        return (Violation, (self[0], self.broken))


def broken_of(violation: tuple[str, str]) -> Broken:
    """What a violation carries; a plain (name, detail) pair carries its detail only."""
    return violation.broken if isinstance(violation, Violation) else Broken(violation[1])


def named(name: str, result: object) -> list[Violation]:
    """An invariant's result as violations: None or "" (it holds), a detail, a Broken, or a list."""
    if not result:
        return []
    items: Iterable[object] = [result] if isinstance(result, (str, Broken)) else result  # type: ignore[assignment]
    return [Violation(name, item if isinstance(item, Broken) else str(item)) for item in items]


@dataclass(frozen=True)
class Moment:
    index: int  # the event (0-based)
    label: str  # what a picture writes beside its mark
    at_end: bool  # placed at the end because the run does not say when


def moment(reading: Reading, violation: tuple[str, str]) -> Moment | None:
    """The event at which `violation` broke, from what it carries (see the module's doc)."""
    events = reading.events
    if not events:
        return None
    name, broken = violation[0], broken_of(violation)
    if broken.at is not None:
        index = next((e.index for e in reversed(events) if e.record <= broken.at), 0)
        return Moment(index, f"{name} broken", False)
    if broken.attempts:
        firsts = []
        for attempt in dict.fromkeys(broken.attempts):
            calls = reading.service_calls(attempt)
            if calls:
                firsts.append(calls[0])
        if firsts:
            return Moment(max(firsts), f"{name} broken", False)
    if broken.final:
        final = reading.final_failures()
        if final:
            return Moment(final[-1], f"{name} broken", False)
    return Moment(events[-1].index, f"{name} judged at the end", True)
