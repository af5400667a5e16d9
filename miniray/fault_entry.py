"""What one fault kind's entry declares (miniray/fault_kinds.py holds the entries, one each).

An entry says what the fault holds (its typed parameters), what it does when it strikes (its
handler), its `sim` helper's shape, the records it can cause, the move a grader's search may
inject it as (`Move`: which choice points it is tried at, and the values it is tried with) and
the sentence that describes it once struck (`words`). Everything that reads fault kinds reads
them here: `Fault` validates and writes its token from the entry, `parse_token` types each value
by it, `miniray.sim` makes the helper and a grader makes its moves and words from it.

This module imports nothing of miniray's but the event vocabulary: the faults, the injector and
the helpers stand a floor up and find their kind here, so a kind is one entry and no import
circle runs through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .events import Kind

if TYPE_CHECKING:  # types only: faults.py stands on this module
    from .faults import Fault, FaultInjector

Handler = Callable[["FaultInjector", "Fault"], None]

# Where a fault is placed in time: the fields every kind shares, and what a token writes them as.
WHEN = ("at", "after_event", "step")
WHEN_TYPES: dict[str, type] = {"at": float, "after_event": int, "step": int}
RESERVED = ("kind", "target", "params")  # Fault's other fields: no parameter takes their names


class Boundary(StrEnum):
    """A kind of choice point: where in a run a fault can strike, and what it then targets.
    `ChoicePoints.points` (miniray/faults.py) lists a run's points of each, in this order."""

    STEP = "step"  # just before interaction `step` of an attempt (the target: its key, "f#1/2")
    NODE_EVENT = "node_event"  # right after kernel event `after_event`, on a node (the target: its name)
    ACTOR_EVENT = "actor_event"  # right after kernel event `after_event`, on an actor ("Counter#1")


@dataclass(frozen=True)
class Param:
    """One parameter of a kind, beyond its target and when it strikes: `name=value` in its token."""

    name: str
    type: type = float  # float (an int passes too), int or str (one word: tokens split on spaces)
    default: Any = 0.0  # a token leaves it out at this value
    doc: str = ""  # what it means, for the error a missing or wrong one gets
    helper_name: str = ""  # the sim helper's keyword for it, when that is not `name` (ramp_s)
    choices: tuple[Any, ...] = ()  # the values it may take, if only some (a drain's reason)

    def check(self, kind: str, value: Any) -> Any:
        ok = (
            isinstance(value, (int, float)) and not isinstance(value, bool)
            if self.type is float
            else isinstance(value, self.type) and not isinstance(value, bool)
        )
        if not ok:
            raise ValueError(
                f"a {kind!r} fault's {self.name}= is {self.type.__name__} ({self.doc}), got {value!r}"
            )
        if self.type is str and (not value or any(c.isspace() for c in value)):
            raise ValueError(f"a {kind!r} fault's {self.name}= is one word with no spaces, got {value!r}")
        if self.choices and value not in self.choices:
            raise ValueError(
                f"a {kind!r} fault's {self.name}= is one of {', '.join(map(str, self.choices))}, got {value!r}"
            )
        return value

    def parse(self, kind: str, text: str) -> Any:
        """The value a token's text names (`duration=15.0` -> 15.0)."""
        return _parse(kind, self.name, self.type, text)


def _parse(kind: str, name: str, type_: type, text: str) -> Any:
    if type_ is str:
        return text
    try:
        return type_(text)
    except ValueError:
        raise ValueError(f"a {kind!r} fault's {name}= is {type_.__name__}, got {text!r}") from None


def write(value: Any) -> str:
    """A value as a token writes it: a float as repr (15.0), an int or a word as it is."""
    return repr(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Move:
    """How a grader's search may inject a kind: under `name` (what exercise.toml's `moves` lists),
    at every choice point of `strikes`, with `args` for its parameters (a tier may change them)."""

    name: str
    strikes: Boundary
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FaultKind:
    name: str  # the token's first word: "kill_node"
    apply: Handler  # what it does when it strikes
    doc: str  # its sim helper's docstring
    params: tuple[Param, ...] = ()  # in the order its token writes them
    events: tuple[Kind, ...] = ()  # the records it can cause (besides `fault`)
    needs: tuple[str, ...] = ()  # fields it must be given (step for a crash, size for use_memory)
    helper: tuple[str, ...] = ("target",)  # the sim helper's positional arguments
    fixed_target: str | None = None  # a kind with one possible target (the head's GCS)
    timed: bool = True  # its helper takes at= (a virtual time)
    move: Move | None = None  # how a grader's search may inject it, if it may
    words: str = ""  # what it does once struck, from its target and values ("node {target} is lost")
    declare: Handler | None = None  # not an event but a standing declaration (use_memory)
    by_name: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {p.name: p for p in self.params})
        taken = [p.name for p in self.params if p.name in (*WHEN, *RESERVED)]
        if taken:
            raise ValueError(f"fault kind {self.name!r}: a parameter may not be called {taken[0]!r}")
        for name in self.needs:
            if name != "step":
                self.param(name)  # a typo in needs= fails as the entry loads
        if self.move is not None:
            for name, value in self.move.args.items():
                self.param(name).check(self.name, value)

    def param(self, name: str) -> Param:
        found = self.by_name.get(name)
        if found is None:
            takes = ", ".join(self.by_name) or "none"
            raise ValueError(f"a {self.name!r} fault has no parameter {name!r} (its parameters: {takes})")
        return found

    def parse(self, name: str, text: str) -> Any:
        """A token's `name=text`, typed: a when field (at, after_event, step) or a parameter."""
        if name in WHEN_TYPES:
            return _parse(self.name, name, WHEN_TYPES[name], text)
        return self.param(name).parse(self.name, text)

    def values(self, given: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """Every parameter's value, in order: `given` (checked) or its default. Refuses a name the
        kind does not declare."""
        for name in given:
            self.param(name)
        return tuple(
            (p.name, p.check(self.name, given[p.name]) if p.name in given else p.default) for p in self.params
        )

    def tail(self, values: Iterable[tuple[str, Any]]) -> str:
        """The parameters' part of a token: ` name=value` for each one not at its default."""
        defaults = self.by_name
        return "".join(f" {n}={write(v)}" for n, v in values if v != defaults[n].default)

    def move_tokens(
        self, points: Iterable[tuple[str, str, int]], args: dict[str, Any] | None = None
    ) -> list[str]:
        """Its move's token at each choice point (target, when field, value): "pause_node node:1
        after_event=9 duration=15.0". `args` change the move's own values (a tier's settings)."""
        assert self.move is not None, f"{self.name} is no move"
        tail = self.tail(self.values({**self.move.args, **(args or {})}))
        return [f"{self.name} {target} {when}={value}{tail}" for target, when, value in points]

    def describe(self, target: str, step: int | None, values: Iterable[tuple[str, Any]]) -> str:
        """Its words, filled in: what it did to `target` ("" when the entry has none)."""
        return self.words.format(target=target, step=step, **dict(values)) if self.words else ""


def registrar(table: dict[str, FaultKind]) -> Callable[..., Callable[[Handler], Handler]]:
    """The `@kind(name, doc, ...)` decorator that puts an entry in `table`, on its handler."""

    def kind(name: str, doc: str, **entry: Any) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            table[name] = FaultKind(name, handler, doc, **entry)
            return handler

        return register

    return kind
