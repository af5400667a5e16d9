"""The event kernel: a virtual clock and a queue of callbacks ordered by (time, sequence).

Deliberately tiny (docs/design/simulator.md says why it is ours rather than SimPy): every other
part of miniray is a state machine that schedules callbacks here, so the kernel is the only place
time moves. Ties at the same virtual time run in the order they were scheduled, which is what makes
a run replay byte for byte.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any

EPOCH = 1_767_225_600.0  # 2026-01-01T00:00:00Z: virtual time 0 as a wall-clock reading (time.time())


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


class Kernel:
    def __init__(self) -> None:
        self._now = 0.0
        # (time, seq, timer) tuples: tuple comparison in C is about twice as fast as Timer.__lt__.
        self._heap: list[tuple[float, int, Timer]] = []
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

    def step_count(self) -> int:
        """Callbacks run so far (what a log record notes as its `step`)."""
        return self.steps

    def at(self, time: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        if time < self._now:
            time = self._now
        seq = next(self._seq)
        timer = Timer(time, seq, fn, args, label)
        heapq.heappush(self._heap, (time, seq, timer))
        return timer

    def schedule(self, delay: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        return self.at(self._now + (delay if delay > 0.0 else 0.0), fn, *args, label=label)

    def peek(self) -> float | None:
        """Time of the next live callback, or None when nothing is scheduled."""
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def next_timer(self) -> Timer | None:
        """The next live timer itself (after peek has dropped cancelled ones), or None."""
        return self._heap[0][2] if self.peek() is not None else None

    def pending(self) -> list[Timer]:
        """Every timer still in the queue, cancelled ones included, in no particular order."""
        return [entry[2] for entry in self._heap]

    def step(self) -> bool:
        """Run the next live callback; False when the queue is empty."""
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
        if not heap:
            return False
        timer = heapq.heappop(heap)[2]
        if timer.time != self._now:
            if self.observers:
                for observe in self.observers:
                    observe()
            self._now = timer.time
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
            self.step()  # peek left a live timer on top: step pops it without searching again
        if until is not None and until > self.now:
            self.now = until
