"""One small waitable: something that happens once, and the callbacks waiting for it.

Modelled on SimPy's event-with-callbacks and its AllOf/AnyOf conditions, cut down to what a
callback kernel needs: no generators, no scheduling of its own. A callback added before the event
happens runs, in the order added, when it does (synchronously, inside `succeed`); one added after
runs at once. Nothing here reads the clock, so waiting adds no kernel events and cannot change a run.

Used for the three waits miniray has: an object's next change (`ObjectEntry.changed`), a task's
arguments all settling (`all_of`), and a blocked body being answered exactly once (waiting.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Callback = Callable[["Event"], None]


class Event:
    __slots__ = ("callbacks", "triggered", "value")

    def __init__(self) -> None:
        self.callbacks: list[Callback] = []
        self.triggered = False
        self.value: Any = None

    def add(self, callback: Callback) -> None:
        if self.triggered:
            callback(self)
        else:
            self.callbacks.append(callback)

    def succeed(self, value: Any = None) -> None:
        """It happened (once: later calls do nothing). Waiters run now, in the order they came."""
        if self.triggered:
            return
        self.triggered, self.value = True, value
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback(self)


class Condition(Event):
    """Happens once `need` of `events` have. It counts rather than keeping the events, so a child
    that never happens holds the condition (through its callback) and not the other way round."""

    __slots__ = ("need", "seen")

    def __init__(self, events: Iterable[Event], need: int) -> None:
        super().__init__()
        self.need = need
        self.seen = 0
        if need <= 0:
            self.succeed()
        for event in events:
            event.add(self._one)

    def _one(self, _event: Event) -> None:
        self.seen += 1
        if self.seen >= self.need:
            self.succeed()


def all_of(events: list[Event]) -> Condition:
    return Condition(events, len(events))


def any_of(events: list[Event]) -> Condition:
    return Condition(events, 1)
