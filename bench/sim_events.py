"""Simulated events per second: miniray running a mixed Ray workload, in CPython and in Pyodide.

The workload is what the course's lessons do at scale: chains of tasks with
sleeps on a multi-node cluster, an actor serving calls, tasks that crash and
are retried, and a node killed mid-run so lost objects are reconstructed. One
event is one step of miniray's kernel (Run.events), the unit of its budgets.

    python bench/sim_events.py            # CPython here, then the same script in Pyodide; ratio
    python bench/sim_events.py --child    # just measure this interpreter, print one JSON line

The Pyodide side runs under Node via pyodide_node/run_script.mjs (npm pyodide
314.0.6 from node_modules, `make node-deps`). Rates are best-of-R in each
interpreter; the ratio CPython/Pyodide is the figure to compare.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

clock = time.perf_counter  # taken before miniray patches time.* for simulated bodies

import miniray  # noqa: E402
from miniray import sim  # noqa: E402
from miniray.cluster_utils import Cluster  # noqa: E402

CHAINS = 48
CHAIN_LENGTH = 20
ACTOR_CALLS = 1000


def workload():
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=cluster.address)
    nodes = [cluster.add_node(num_cpus=2) for _ in range(4)]
    sim.kill_node(nodes[0], at=3.0)  # mid-run: its objects are lost and rebuilt elsewhere

    @miniray.remote(max_retries=3)
    def stage(chain, i, prev=None):
        time.sleep(0.2 + 0.05 * ((chain + i) % 4))
        if (chain * 31 + i) % 17 == 0 and sim.now() < 2.0:
            os._exit(1)  # an early worker crash: the retry, a second later, succeeds
        return (prev or 0) + i

    @miniray.remote
    class Tally:
        def __init__(self):
            self.total = 0

        def add(self, x):
            self.total += x
            return self.total

    tails = []
    for chain in range(CHAINS):
        ref = None
        for i in range(CHAIN_LENGTH):
            ref = stage.remote(chain, i, ref)
        tails.append(ref)
    tally = Tally.remote()
    calls = [tally.add.remote(1) for _ in range(ACTOR_CALLS)]
    results = miniray.get(tails)
    miniray.get(calls)
    miniray.shutdown()
    cluster.shutdown()
    return sum(results)


def measure(repeat):
    best, events, value = None, None, None
    for _ in range(repeat):
        start = clock()
        run = sim.run(workload, seed=1)
        elapsed = clock() - start
        if run.error is not None:
            raise run.error
        if events is not None and (run.events, run.value) != (events, value):
            raise AssertionError("the same seed gave a different run: determinism is broken")
        events, value = run.events, run.value
        best = elapsed if best is None else min(best, elapsed)
    return {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "events": events,
        "virtual_end_s": round(run.virtual_time, 3),
        "best_wall_s": round(best, 4),
        "events_per_s": round(events / best),
    }


def run_in_pyodide(repeat):
    # Imported here: the same script also runs inside Pyodide, where this host-side helper is absent.
    import pyodide_node

    proc = pyodide_node.run("bench/sim_events.py", "--child", "--repeat", str(repeat), timeout=900)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"Pyodide run failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return json.loads(lines[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", action="store_true", help="measure this interpreter only; JSON out")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.repeat)))
        return None
    cpython = measure(args.repeat)
    pyodide = run_in_pyodide(args.repeat)
    if (cpython["events"], cpython["virtual_end_s"]) != (pyodide["events"], pyodide["virtual_end_s"]):
        raise AssertionError(f"CPython and Pyodide simulated different runs: {cpython} vs {pyodide}")
    result = {
        "benchmark": "sim_events",
        "events": cpython["events"],
        "cpython": cpython,
        "pyodide": pyodide,
        "ratio_cpython_over_pyodide": round(cpython["events_per_s"] / pyodide["events_per_s"], 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"workload: {CHAINS} chains x {CHAIN_LENGTH} tasks, {ACTOR_CALLS} actor calls, a node "
            f"killed at t=3 s -> {cpython['events']} kernel events, "
            f"{cpython['virtual_end_s']} virtual s (best of {args.repeat})"
        )
        print(f"  CPython {cpython['python']}:          {cpython['events_per_s']:>10,} events/s")
        print(f"  Pyodide {pyodide['python']} (Node):   {pyodide['events_per_s']:>10,} events/s")
        print(f"  ratio CPython/Pyodide: {result['ratio_cpython_over_pyodide']:.2f}x")
    return result


if __name__ == "__main__":
    main()
