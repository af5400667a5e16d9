"""The event kernel: a virtual clock and a queue of callbacks ordered by (time, sequence).

Deliberately tiny (see docs/design/kernel.md for why it replaced SimPy): every other part of
miniray is a state machine that schedules callbacks here, so the kernel is the only place time
moves. Ties at the same virtual time run in the order they were scheduled, which is what makes
a run replay byte for byte.
"""
from __future__ import annotations

import heapq
import itertools
from typing import Any, Callable


class Timer:
    """A scheduled callback; `cancel()` leaves it in the heap but makes it a no-op."""

    __slots__ = ("time", "seq", "fn", "args", "cancelled", "label")

    def __init__(self, time: float, seq: int, fn: Callable, args: tuple, label: str):
        self.time = time
        self.seq = seq
        self.fn = fn
        self.args = args
        self.cancelled = False
        self.label = label

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: "Timer") -> bool:
        return (self.time, self.seq) < (other.time, other.seq)


class Kernel:
    def __init__(self) -> None:
        self._now = 0.0
        self._heap: list[Timer] = []
        self._seq = itertools.count()
        self.steps = 0  # callbacks run so far: the unit of the event budget and of choice points
        self.before_step: Callable[[Timer], None] | None = None
        # Read-only observers (the metrics sampler), called just before the clock moves, so they
        # see the state the instant ended with. They must never schedule anything.
        self.observers: list[Callable[[], None]] = []

    @property
    def now(self) -> float:
        return self._now

    @now.setter
    def now(self, time: float) -> None:
        # Every way the clock moves (a step, a driver's sleep, a body's fast-forwarded sleep) ends here.
        if time != self._now:
            for observe in self.observers:
                observe()
        self._now = time

    def at(self, time: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        if time < self.now:
            time = self.now
        timer = Timer(time, next(self._seq), fn, args, label)
        heapq.heappush(self._heap, timer)
        return timer

    def schedule(self, delay: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        return self.at(self.now + max(0.0, delay), fn, *args, label=label)

    def peek(self) -> float | None:
        """Time of the next live callback, or None when nothing is scheduled."""
        heap = self._heap
        while heap and heap[0].cancelled:
            heapq.heappop(heap)
        return heap[0].time if heap else None

    def step(self) -> bool:
        """Run the next live callback; False when the queue is empty."""
        if self.peek() is None:
            return False
        timer = heapq.heappop(self._heap)
        self.now = timer.time
        self.steps += 1
        if self.before_step is not None:
            self.before_step(timer)
        timer.fn(*timer.args)
        return True

    def run(self, until: float | None = None) -> None:
        """Run callbacks up to and including virtual time `until` (all of them if None)."""
        while True:
            nxt = self.peek()
            if nxt is None or (until is not None and nxt > until):
                break
            self.step()
        if until is not None and until > self.now:
            self.now = until
