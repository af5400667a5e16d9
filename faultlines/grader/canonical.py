"""A failing schedule in words that do not depend on how the learner wrote their code.

The grader's shrunk schedule names attempts by the learner's function and class names
(`crash count#1/1 step=2`) and places faults by counts (`step=2`: before the attempt's third call
to the cluster; `after_event=11`: after the run's eleventh kernel event). Two learners with the
same mistake can differ in all of these: one calls the task `count`, the other `tally`; one reads
a value before charging, so the charge is step 1, not step 0. The canonical form keeps what the
mistake is made of and drops the rest:

    crash process_order#1/1 step=2           ->  crash process_order#1/1 after api.charge
    crash Tally.add#2/1 step=0               ->  crash actor1.add#2/1 at start
    crash count#1/1 step=0                   ->  crash task2#1/1 at start
    kill_node node:1 after_event=11          ->  kill_node node:1 after task.start downstream#2/1
    client after_call=1, pause ... at=3.0    ->  unchanged (a count of service calls, a virtual time)

- The learner's functions and actor classes are renamed `task<k>` and `actor<k>` by their first
  appearance in the failing run (its log, then its journals). Names the exercise fixes stay: its
  entry functions and the scenario's own tasks (the grader passes them as `keep`), and method
  names (the scenario calls them by name). Submission ordinals (`#2`) and attempt
  numbers (`/1`) stay: they count what the run did, not how the code is spelled.
- A crash's step is named by the journal operation just before it ("after api.charge",
  "#2" when that operation came twice), or "at start".
- A node fault after a kernel event is placed after the last thing the log shows before it
  struck (its kind and what it concerned), leaving out what says nothing about where the run
  was: object store traffic, and faults striking (the run's reading, `Reading.landmarks`).

What cannot be placed (a move that never struck in the run given) keeps its raw token. Pure
data in, strings out: the grader calls `schedule()` on the reading of the failing run it
reports, and the class map (faultlines/classmap) groups on the result.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from faultlines.reading import Lane, Reading, table

_KEY = re.compile(r"^(?P<name>[^#\s]+)#(?P<rest>\d+(?:/\d+)?)$")  # count#1/1, Tally.add#2/1, Tally#1
_ACTOR = re.compile(r"^(?P<cls>[A-Za-z_][\w]*)\((?P<id>[0-9a-f]+)\)$")  # Tagger(54d6d5da)
_OPS_WITH_NAMES = ("submit ", "create actor ", "call ")


class Names:
    """The learner's function and class names, renamed by first appearance in one run. Names in
    `keep` stay: the exercise fixes them (its entry functions, the scenario's own tasks)."""

    def __init__(self, keep: Collection[str] = ()) -> None:
        self.keep = frozenset(keep)
        self.tasks: dict[str, str] = {}
        self.actors: dict[str, str] = {}

    def actor(self, cls: str) -> str:
        if cls in self.keep:
            return cls
        return self.actors.setdefault(cls, f"actor{len(self.actors) + 1}")

    def function(self, name: str) -> str:
        """`count` -> task1; `Tally.add` -> actor1.add; `Tally.__init__` -> actor1.__init__."""
        cls, dot, method = name.partition(".")
        if dot:
            return f"{self.actor(cls)}.{method}"
        if name in self.keep:
            return name
        return self.tasks.setdefault(name, f"task{len(self.tasks) + 1}")

    def key(self, key: str) -> str:
        """An attempt key or an actor target: `count#1/2` -> `task1#1/2`; anything else as it is."""
        found = _KEY.match(key)
        if found is None:
            actor = _ACTOR.match(key)
            return self.actor(actor["cls"]) if actor else key
        name, rest = found["name"], found["rest"]
        if "/" not in rest and "." not in name:  # "Tally#1": an actor by class and ordinal
            return f"{self.actor(name)}#{rest}"
        return f"{self.function(name)}#{rest}"

    def op(self, op: str) -> str:
        """A journal operation with the names in it renamed: `submit count` -> `submit task1`."""
        for prefix in _OPS_WITH_NAMES:
            if op.startswith(prefix):
                name = op[len(prefix) :]
                return prefix + (self.actor(name) if prefix == "create actor " else self.function(name))
        return op

    def learn(self, reading: Reading) -> None:
        """Meet every name in the order the run shows them: the log first (submissions and
        actor creations, in the order the driver made them), then the journals."""
        for lane, name in reading.made():
            if lane is Lane.TASKS:
                self.function(name)
            else:
                self.key(name)
        for key, entries in reading.journals.items():
            self.key(key)
            for op, _site in entries:
                self.op(op)


def _split(token: str) -> tuple[str, str, list[tuple[str, str]]]:
    kind, target, *rest = token.split()
    return kind, target, [tuple(item.split("=", 1)) for item in rest]  # type: ignore[misc]


def _nth(items: Sequence[str], index: int) -> str:
    """items[index], with "#j" when the same item came earlier too (the j-th of its kind)."""
    item = items[index]
    seen = items[: index + 1].count(item)
    return item if seen == 1 else f"{item}#{seen}"


def _crash_place(names: Names, journal: Sequence[tuple[str, str]] | None, step: int) -> str | None:
    if journal is None or step > len(journal):
        return None
    if step == 0:
        return "at start"
    ops = [names.op(op) for op, _ in journal]
    return f"after {_nth(ops, step - 1)}"


def _subject(names: Names, record: Any) -> str:
    fields = record.fields
    if table.of(record.kind).lane is Lane.SERVICES:  # a call to a service: which one, and who made it
        return f"{fields.get('service')}.{fields.get('op')} by {names.key(str(fields.get('attempt', '')))}"
    if "attempt" in fields:
        return names.key(str(fields["attempt"]))
    if "actor" in fields:
        actor = names.key(str(fields["actor"]))
        return f"{actor} {fields['state']}" if "state" in fields else actor
    if "task" in fields:
        return names.function(str(fields["task"]))
    return str(fields.get("node", ""))


def _event_place(names: Names, reading: Reading, token: str) -> str | None:
    """After the last landmark before the fault `token` struck, or None if it never did."""
    struck = reading.struck(token)
    if struck is None:
        return None
    shown = [f"{r.kind} {_subject(names, r)}".strip() for r in reading.landmarks(before=struck.index)]
    return f"after {_nth(shown, len(shown) - 1)}" if shown else "at start"


def move(token: str, names: Names, reading: Reading) -> str:
    """One move of a schedule in its canonical words (see the module's docstring)."""
    kind, target, args = _split(token)
    if kind == "client":
        return token
    place: str | None = None
    kept: list[str] = []
    for key, value in args:
        if key == "step" and kind == "crash":
            place = _crash_place(names, reading.journals.get(target), int(value))
            if place is None:
                return token
        elif key == "after_event":
            place = _event_place(names, reading, token)
            if place is None:
                return token
        else:
            kept.append(f"{key}={value}")
    return " ".join([kind, names.key(target), *([place] if place else []), *kept])


def schedule(tokens: Sequence[str], reading: Reading, keep: Collection[str] = ()) -> list[str]:
    """The canonical form of a schedule, given the reading of the run it failed in (its log and
    journals); `keep`: names the exercise fixes, which stay as they are."""
    names = Names(keep)
    names.learn(reading)
    return [move(token, names, reading) for token in tokens]


@cache
def defined_in(path: Path) -> frozenset[str]:
    """Every function and class name a file defines, at any depth: an exercise's checks.py, whose
    scenarios define their own tasks (`downstream`), which are the exercise's names to keep."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    )
