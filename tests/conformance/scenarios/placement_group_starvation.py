"""Ray #65147 (seed 000): a recovering placement group spins and starves an unrelated one.

Four 1-CPU nodes labelled L1/L2/L1/L2; PG_A on N1+N2, PG_B on N3+N4, each bundle pinned to a
label. Losing N2 puts PG_A in a retry loop with no backoff; PG_C, which needs only a resource
on a fresh node, is never tried; losing N3 makes both groups spin; removing PG_B lets PG_A and
PG_C be created at once. The 30 s waits of the seed are shortened: the shape shows in seconds.
"""

import time

from _cluster import FAST_FAILURE_DETECTION

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False

WINDOW_S = 1.0


def wait_for(condition, limit_s=90.0):
    """Real Ray notices a removed node after its health checks (about 1 s); miniray at once."""
    start = time.time()
    while not condition() and time.time() - start < limit_s:
        time.sleep(0.1)
    time.sleep(0.5)


def run(ray, cluster_utils, workdir):
    pg_mod = __import__(ray.__name__ + ".util.placement_group", fromlist=["placement_group"])
    placement_group = pg_mod.placement_group
    table = pg_mod.placement_group_table
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": FAST_FAILURE_DETECTION}
    )
    try:
        # PG_A is created while only N1 and N2 exist, PG_B after N3 and N4 join: Ray may otherwise
        # place PG_A on N3+N2 and PG_B on N1+N4, and the seed's layout is N1+N2 / N3+N4.
        nodes = [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
        ray.init(address=cluster.address)
        selector = [{"tier": "L1"}, {"tier": "L2"}]

        def make(name):
            pg = placement_group(
                [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", bundle_label_selector=selector, name=name
            )
            ray.get(pg.ready())
            return pg

        def stats(pg):
            row = table(pg)
            return row["state"], row["stats"]["scheduling_attempt"], row["stats"]["highest_retry_delay_ms"]

        pg_a = make("PG_A")
        nodes += [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
        pg_b = make("PG_B")
        obs = {"created": [stats(pg_a)[0], stats(pg_b)[0]]}

        cluster.remove_node(nodes[1], allow_graceful=False)
        wait_for(lambda: stats(pg_a)[0] == "RESCHEDULING")
        state0, attempts0, _ = stats(pg_a)
        time.sleep(WINDOW_S)
        state1, attempts1, delay1 = stats(pg_a)
        rate = (attempts1 - attempts0) / WINDOW_S
        # The rate depends on the host (real Ray measured 80k-220k/s here); its shape does not:
        # attempts keep growing with no retry delay.
        obs["after_n2_loss"] = {
            "pg_a_state": state1,
            "pg_a_retry_delay_ms": delay1,
            "pg_a_attempts_grow": attempts1 > attempts0,
            "_pg_a_attempts_per_s": round(rate),
        }

        cluster.add_node(num_cpus=1, resources={"PG_C_ONLY": 1})
        pg_c = placement_group([{"PG_C_ONLY": 1}], name="PG_C")
        time.sleep(WINDOW_S)
        state_c, attempts_c, _ = stats(pg_c)
        obs["pg_c_starved"] = {"state": state_c, "attempts": attempts_c}

        cluster.remove_node(nodes[2], allow_graceful=False)
        wait_for(lambda: stats(pg_b)[0] == "RESCHEDULING")
        a0, b0 = stats(pg_a)[1], stats(pg_b)[1]
        time.sleep(WINDOW_S)
        a1, b1 = stats(pg_a)[1], stats(pg_b)[1]
        obs["after_n3_loss"] = {
            "pg_a_state": stats(pg_a)[0],
            "pg_b_state": stats(pg_b)[0],
            "both_attempts_grow": a1 > a0 and b1 > b0,
            "pg_c_state": stats(pg_c)[0],
            "pg_c_attempts": stats(pg_c)[1],
            "_attempts_in_window": [a1 - a0, b1 - b0],
        }

        pg_mod.remove_placement_group(pg_b)
        start = time.time()
        created = {}
        while time.time() - start < 10 and len(created) < 2:
            for name, pg in (("PG_A", pg_a), ("PG_C", pg_c)):
                if name not in created and stats(pg)[0] == "CREATED":
                    created[name] = time.time() - start
            time.sleep(0.005)
        # The seed measured 0.06 s; a loaded 2-core host stretches that, so the compared key is
        # only that both groups are created promptly, and the seconds are informational.
        obs["after_removing_pg_b"] = {
            "created": sorted(created),
            "within_2_s": all(t < 2.0 for t in created.values()),
            "_seconds": {k: round(v, 4) for k, v in created.items()},
        }
        return obs
    finally:
        ray.shutdown()
        cluster.shutdown()
