"""What a grader pays to replay a small scenario under each of its fault choice points.

Prints the wall time of one clean run, the number of crash choice points, and the mean wall
time per replay, with the ratio replay/clean (a replay should cost about one clean run).
"""

from __future__ import annotations

import statistics
import time

import miniray
from miniray import sim


def scenario():
    miniray.init(num_cpus=2)

    @miniray.remote(max_retries=1)
    def stage(i, prev=None):
        time.sleep(0.5)
        time.sleep(0.5)
        return i

    ref = None
    for i in range(6):
        ref = stage.remote(i, ref)
    return miniray.get(ref)


def main() -> None:
    clock = time.perf_counter  # the host clock, outside any simulated run
    clean_times = []
    for _ in range(5):
        t0 = clock()
        clean = sim.run(scenario)
        clean_times.append(clock() - t0)
    points = clean.points.crashes()
    t0 = clock()
    outcomes = {}
    for fault in points:
        run = sim.run(scenario, faults=[fault])
        key = type(run.error).__name__ if run.error else "ok"
        outcomes[key] = outcomes.get(key, 0) + 1
    per_replay = (clock() - t0) / len(points)
    base = statistics.median(clean_times)
    print(f"clean run: {base * 1000:.2f} ms, {clean.events} events, {len(points)} crash choice points")
    print(
        f"replay per choice point: {per_replay * 1000:.2f} ms (ratio to a clean run {per_replay / base:.2f}x)"
    )
    print(f"outcomes over all single-crash schedules: {outcomes}")


if __name__ == "__main__":
    main()
