"""A notebook's state, fresh for every graded run, without running a cell again.

check() grades the functions the learner's cells defined, in the notebook's own namespace. A
run must not see what an earlier run left behind (a module-level list it appended to, a class
attribute it counted in, a closure's counter), or a verdict would depend on the order of the
runs. So, once per check(), miniray's one walk of learner state (miniray/isolation/footprint.py,
`footprint(..., whole=True)`: its rules are written there, once) finds the *slots* the learner's
functions reach (the globals their code names, their closure cells, default arguments, function
attributes, and the attributes of the classes the cells defined, the ones a run's simulated
processes share included), and this copies their values. Every run swaps a fresh
copy of those values in, and puts the learner's own values back when it ends: grading leaves the
notebook as it was.

What it does not reach: an actor class's attributes written by the driver (miniray gives each
simulated worker process its own copy; the driver's side is rarely written), and state in other
modules (shared on Ray too). The CLI needs none of this: it runs the compiled file again for
each run (submission.from_source).
"""

from __future__ import annotations

import copy
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from miniray.isolation import MISSING, footprint


def _copy(value: Any) -> Any:
    """A deep copy in which "no value" stays "no value"."""
    return copy.deepcopy(value, {id(MISSING): MISSING})


def _never(_module: str) -> bool:
    return False


class NotebookState:
    """The learner's slots in `namespace`, reached from the `entries` functions, and a copy of
    their values taken once (at check() time)."""

    def __init__(self, namespace: dict[str, Any], entries: list[str]):
        self.namespace = namespace
        self.module = namespace.get("__name__", "__main__")
        # miniray's one walk of learner state, whole: each simulated process's own slots and
        # those a run's processes share (its handles' code, services made in a cell, names not
        # made yet), since a fresh run gets its own copy of every one.
        roots = types.SimpleNamespace(**{name: namespace[name] for name in entries})
        reach = footprint(roots, lambda module: module == self.module, _never, whole=True)
        slots = [s for s in (*reach.slots, *reach.shared) if s.owner is not roots]
        try:  # one copy of them all, so two names for one list stay one list
            self.slots, self.values = slots, _copy([slot.get() for slot in slots])
        except Exception:  # something cannot be copied (a lock, a generator): it stays shared
            self.slots, self.values = [], []
            for slot in slots:
                try:
                    self.values.append(_copy(slot.get()))
                except Exception:
                    continue
                self.slots.append(slot)

    @contextmanager
    def fresh(self) -> Iterator[dict[str, Any]]:
        """The namespace with a fresh copy of the learner's state swapped in, for one run."""
        saved = [slot.get() for slot in self.slots]
        for slot, value in zip(self.slots, _copy(self.values)):
            slot.set(value)
        try:
            yield self.namespace
        finally:
            for slot, value in zip(self.slots, saved):
                slot.set(value)
