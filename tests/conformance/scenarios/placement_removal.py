"""Removing a placement group kills the actors placed in it, however they were placed (the
legacy `.options(placement_group=pg, placement_group_bundle_index=i)` too), frees their CPUs,
and `placement_group_table` then reports the group REMOVED.
"""

from _actors import dead, watch_states
from _observe import describe_error, get_or_error, wait_until

# Real Ray needs minutes for this one (restarts, timeouts, cancellations): checked against the
# recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=4)
    placement_group_table, remove_placement_group = (
        ray.util.placement_group_table,
        ray.util.remove_placement_group,
    )
    try:
        pg = ray.util.placement_group([{"CPU": 1}, {"CPU": 1}])
        ray.get(pg.ready(), timeout=30)

        @ray.remote(num_cpus=1)
        class Member:
            def ping(self):
                return "pong"

        legacy = Member.options(placement_group=pg, placement_group_bundle_index=0).remote()
        strategy = ray.util.scheduling_strategies.PlacementGroupSchedulingStrategy(
            placement_group=pg, placement_group_bundle_index=1
        )
        modern = Member.options(scheduling_strategy=strategy).remote()
        before = ray.get([legacy.ping.remote(), modern.ping.remote()])
        table_before = placement_group_table(pg)
        cpus_with_pg = ray.available_resources().get("CPU", 0)
        remove_placement_group(pg)
        states = {
            "legacy": watch_states(ray, legacy, dead, limit_s=15)[-1],
            "modern": watch_states(ray, modern, dead, limit_s=15)[-1],
        }
        _, legacy_err = get_or_error(ray, legacy.ping.remote(), timeout=15)
        _, modern_err = get_or_error(ray, modern.ping.remote(), timeout=15)
        wait_until(ray, lambda: ray.available_resources().get("CPU", 0) >= 4)
        table = placement_group_table(pg)
        return {
            "before": before,
            "table_before": {k: table_before[k] for k in ("state", "strategy", "name", "bundles")},
            "cpus_free_with_pg": cpus_with_pg,
            "final_states": states,
            "legacy_call_after": describe_error(ray, legacy_err),
            "modern_call_after": describe_error(ray, modern_err),
            "cpus_free_after": ray.available_resources().get("CPU", 0),
            "table_after": {k: table[k] for k in ("state", "strategy", "name", "bundles")},
            "table_keys": sorted(table),
            "table_after_still_maps_bundles_to_nodes": len(table["bundles_to_node_id"]),
            "_table_after": repr(table),
        }
    finally:
        ray.shutdown()
