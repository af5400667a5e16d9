"""The seed-000 starvation window: simulated on miniray against the same window on real Ray.

Both backends: four 1-CPU nodes labelled L1/L2/L1/L2, PG_A and PG_B placed, N2 removed, then
PG_C (an independent resource on a fresh node) created and left for WINDOW seconds. Prints
PG_A's scheduling attempts per second, PG_C's attempts, and the wall time each backend needs
for the window, with the ratio. Real Ray runs in RAY_PYTHON (make bench sets it) in a
subprocess; pass --window 35 for the seed's full window (default 10 s to keep `make bench` short).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def window(ray, cluster_utils, seconds: float) -> dict:
    """Runs on either backend; time.sleep is virtual on miniray and real on Ray."""
    pg_mod = __import__(ray.__name__ + ".util.placement_group", fromlist=["placement_group"])
    cluster = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "_system_config": {
                "health_check_period_ms": 100,
                "health_check_failure_threshold": 10,
                "health_check_initial_delay_ms": 0,
            },
        },
    )
    nodes = [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
    ray.init(address=cluster.address)
    try:
        sel = [{"tier": "L1"}, {"tier": "L2"}]
        groups = []
        for name in ("PG_A", "PG_B"):  # PG_A on N1+N2, then PG_B on N3+N4, as in the seed
            if name == "PG_B":
                nodes += [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
            pg = pg_mod.placement_group(
                [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", bundle_label_selector=sel, name=name
            )
            ray.get(pg.ready())
            groups.append(pg)
        cluster.remove_node(nodes[1], allow_graceful=False)
        for _ in range(300):  # real Ray notices the loss after its health checks; miniray at once
            if pg_mod.placement_group_table(groups[0])["state"] == "RESCHEDULING":
                break
            time.sleep(0.1)
        time.sleep(0.5)
        cluster.add_node(num_cpus=1, resources={"PG_C_ONLY": 1})
        pg_c = pg_mod.placement_group([{"PG_C_ONLY": 1}], name="PG_C")
        a0 = pg_mod.placement_group_table(groups[0])["stats"]["scheduling_attempt"]
        clock = time.perf_counter  # host time on both: the cost of the window
        t0 = clock()
        time.sleep(seconds)
        wall = clock() - t0
        a = pg_mod.placement_group_table(groups[0])
        a1 = a["stats"]["scheduling_attempt"]
        c = pg_mod.placement_group_table(pg_c)
        return {
            "wall_s": wall,
            "pg_a_attempts_per_s": (a1 - a0) / seconds,
            "pg_a_state": a["state"],
            "pg_c_state": c["state"],
            "pg_c_attempts": c["stats"]["scheduling_attempt"],
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def real_ray(seconds: float) -> dict | None:
    python = os.environ.get("RAY_PYTHON")
    if not python:
        return None
    code = (
        f"import sys, json; sys.path.insert(0, {str(REPO / 'bench')!r});"
        "import ray, ray.cluster_utils as cu; from pg_starvation import window;"
        f"print('RESULT', json.dumps(window(ray, cu, {seconds})))"
    )
    env = dict(os.environ, RAY_TMPDIR=tempfile.mkdtemp(prefix="pgb", dir="/tmp"), RAY_USAGE_STATS_ENABLED="0")
    proc = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, env=env, timeout=seconds + 180
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    print(proc.stdout[-2000:], proc.stderr[-2000:])
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=float, default=10.0)
    seconds = parser.parse_args().window
    sys.path.insert(0, str(REPO))
    import miniray
    import miniray.cluster_utils

    sim = window(miniray, miniray.cluster_utils, seconds)
    print(
        f"miniray:  PG_A {sim['pg_a_attempts_per_s']:,.0f} attempts per virtual second; "
        f"PG_C {sim['pg_c_state']} after {sim['pg_c_attempts']} attempts; "
        f"{seconds:g} virtual s simulated in {sim['wall_s'] * 1000:.2f} ms"
    )
    real = real_ray(seconds)
    if real is None:
        print("real Ray: skipped (set RAY_PYTHON, as `make bench` does)")
        return
    print(
        f"real Ray: PG_A {real['pg_a_state']}, {real['pg_a_attempts_per_s']:,.0f} attempts per second; "
        f"PG_C {real['pg_c_state']} after {real['pg_c_attempts']} attempts; "
        f"window took {real['wall_s']:.2f} s"
    )
    print(f"wall-time ratio real Ray / miniray for the window: {real['wall_s'] / sim['wall_s']:,.0f}x")


if __name__ == "__main__":
    main()
