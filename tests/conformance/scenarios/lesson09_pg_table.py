"""Lesson 9's hot loop in Ray's own words: `placement_group_table()` for PG_A after N2 died, and
for PG_C, which needs only a resource nobody else uses (the layout of
placement_group_starvation.py, Ray issue #65147, cut short after the first loss).

Observed and compared: PG_A is RESCHEDULING with no retry delay and a growing counter; PG_C is
PENDING with no attempt. Shown, not compared: both rows as `placement_group_table()` returns
them (the counts depend on the machine's speed).
"""

import pprint
import time

from _cluster import FAST_FAILURE_DETECTION
from _said import normalise
from placement_group_starvation import WINDOW_S, wait_for

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    pg_mod = __import__(ray.__name__ + ".util.placement_group", fromlist=["placement_group"])
    table = pg_mod.placement_group_table
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": FAST_FAILURE_DETECTION}
    )
    try:
        nodes = [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
        ray.init(address=cluster.address)
        selector = [{"tier": "L1"}, {"tier": "L2"}]

        def make(name):
            pg = pg_mod.placement_group(
                [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", bundle_label_selector=selector, name=name
            )
            ray.get(pg.ready())
            return pg

        pg_a = make("PG_A")
        nodes += [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2")]
        make("PG_B")
        cluster.remove_node(nodes[1], allow_graceful=False)
        wait_for(lambda: table(pg_a)["state"] == "RESCHEDULING")
        before = table(pg_a)["stats"]["scheduling_attempt"]
        cluster.add_node(num_cpus=1, resources={"PG_C_ONLY": 1})
        pg_c = pg_mod.placement_group([{"PG_C_ONLY": 1}], name="PG_C")
        time.sleep(WINDOW_S)
        a, c = table(pg_a), table(pg_c)
        return {
            "pg_a": {
                "state": a["state"],
                "retry_delay_ms": a["stats"]["highest_retry_delay_ms"],
                "attempts_grew": a["stats"]["scheduling_attempt"] > before,
            },
            "pg_c": {"state": c["state"], "attempts": c["stats"]["scheduling_attempt"]},
            "_said_pg_a": _listing(a),
            "_said_pg_c": _listing(c),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def _listing(row):
    return normalise(pprint.pformat(row, width=76, sort_dicts=False))
