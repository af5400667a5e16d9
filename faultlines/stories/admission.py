"""Lesson 8's admission step: a driver that submits a batch all at once, or keeps a window.

`.remote()` never refuses: every task waits in its owner's queue until a raylet leases it a
worker. `flood` runs a batch of one-second tasks either all at once or with at most `window`
submitted and unfinished, the `ray.wait` pattern of Ray's docs ("Pattern: Using ray.wait to limit
the number of pending tasks"). `peak_in_flight` reads the run's log: the most tasks submitted and
not yet finished at any moment, which is what the owner holds.
"""

from __future__ import annotations

import time

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import sim


def flood(tasks: int = 100, window: int | None = None, cpus: int = 4) -> float:
    """Run `tasks` one-second tasks; with `window`, keep at most that many submitted and unfinished."""
    ray.init(num_cpus=cpus)

    @ray.remote
    def work(i):
        time.sleep(1)
        return i

    if window is None:
        ray.get([work.remote(i) for i in range(tasks)])  # admit everything at once
    else:
        in_flight: list = []
        for i in range(tasks):
            if len(in_flight) >= window:  # backpressure: wait for one to finish before the next
                _, in_flight = ray.wait(in_flight, num_returns=1)
            in_flight.append(work.remote(i))
        ray.get(in_flight)
    return sim.now()


def peak_in_flight(records: list) -> int:
    """The most tasks submitted and not yet finished at once, from a run's records."""
    reading = Reading(records)
    changes = [(r.index, 1) for r in reading.of(Kind.TASK_SUBMIT)]
    changes += [(r.index, -1) for r in reading.of(Kind.TASK_FINISH)]
    peak = current = 0
    for _, change in sorted(changes):  # in the log's order
        current += change
        peak = max(peak, current)
    return peak
