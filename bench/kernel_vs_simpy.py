"""Events per second: miniray's own event kernel against SimPy 4.1 on the same workload.

The workload is the shape miniray's kernel mostly sees: N independent processes,
each waiting on a series of M timeouts of slightly different lengths, so the
queue stays N deep and ties at equal times occur. One event = one timeout fired.

    python bench/kernel_vs_simpy.py [--procs N] [--timeouts M] [--repeat R] [--json]

Prints each kernel's best-of-R rate and the ratio miniray/SimPy (>1: miniray faster).
Both run in this process, back to back, so the ratio is the figure to compare across machines.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miniray.kernel import Kernel  # noqa: E402

clock = time.perf_counter  # read before anything could patch time (miniray does, while a runtime is up)


def delay_of(proc_index):
    """Deterministic, varied delays (1.0 .. 1.6 s of virtual time)."""
    return 1.0 + (proc_index % 7) * 0.1


def run_miniray_kernel(procs, timeouts):
    kernel = Kernel()
    fired = [0]

    def wake(remaining, delay):
        fired[0] += 1
        if remaining > 1:
            kernel.schedule(delay, wake, remaining - 1, delay)

    for i in range(procs):
        kernel.schedule(delay_of(i), wake, timeouts, delay_of(i))
    kernel.run()
    return fired[0], kernel.now


def run_simpy(procs, timeouts):
    import simpy

    env = simpy.Environment()
    fired = [0]

    def process(delay):
        for _ in range(timeouts):
            yield env.timeout(delay)
            fired[0] += 1

    for i in range(procs):
        env.process(process(delay_of(i)))
    env.run()
    return fired[0], env.now


def best_rate(fn, procs, timeouts, repeat):
    best = None
    for _ in range(repeat):
        start = clock()
        events, end_time = fn(procs, timeouts)
        elapsed = clock() - start
        best = elapsed if best is None else min(best, elapsed)
    return events, end_time, events / best, best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=1000)
    parser.add_argument("--timeouts", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    args = parser.parse_args(argv)

    mine = best_rate(run_miniray_kernel, args.procs, args.timeouts, args.repeat)
    simpy_ = best_rate(run_simpy, args.procs, args.timeouts, args.repeat)
    # Same workload, same virtual end time and event count, or the comparison is void.
    assert mine[0] == simpy_[0] and abs(mine[1] - simpy_[1]) < 1e-6, (mine[:2], simpy_[:2])
    result = {
        "benchmark": "kernel_vs_simpy",
        "procs": args.procs,
        "timeouts_per_proc": args.timeouts,
        "events": mine[0],
        "miniray_kernel_events_per_s": round(mine[2]),
        "simpy_events_per_s": round(simpy_[2]),
        "ratio_miniray_over_simpy": round(mine[2] / simpy_[2], 2),
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"workload: {args.procs} processes x {args.timeouts} timeouts = {mine[0]} events "
            f"(best of {args.repeat})"
        )
        print(f"  miniray kernel: {mine[2]:>12,.0f} events/s  ({mine[3]:.3f} s)")
        print(f"  SimPy 4.1     : {simpy_[2]:>12,.0f} events/s  ({simpy_[3]:.3f} s)")
        print(f"  ratio miniray/SimPy: {result['ratio_miniray_over_simpy']:.2f}x")
    return result


if __name__ == "__main__":
    main()
