"""`ray.get_runtime_context()` in the driver, a task and an actor (before and after a restart),
and `ray.init("local")` (the address is init's first parameter), with `ray.util` loaded.
"""

import os

from _observe import wait_until

# Real Ray needs minutes for this one (restarts, timeouts, cancellations): checked against the
# recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    # One Ray start (each is slow on a busy machine). The address is init's first parameter:
    # "local" starts a new cluster. (Connecting to a Cluster's address is what every multi-node
    # scenario does; "auto" is in tests/unit, since real Ray's finds any cluster on the machine.)
    out = {"init": {}}
    ray.init("local", num_cpus=3)
    try:
        out["init"]["local_cpus"] = ray.cluster_resources().get("CPU")
        out["init"]["util_loaded"] = callable(getattr(getattr(ray, "util", None), "placement_group", None))
        out["context"] = _context(ray)
    finally:
        ray.shutdown()
    return out


def _context(ray):
    driver = ray.get_runtime_context()
    node_ids = [n["NodeID"] for n in ray.nodes()]

    def describe(ctx):
        return {
            "job_id": ask(ctx.get_job_id),
            "task_id_set": ask(lambda: ctx.get_task_id() is not None),
            "actor_id": ask(ctx.get_actor_id),
            "node_known": ask(lambda: ctx.get_node_id() in node_ids),
            "resources": ask(ctx.get_assigned_resources),
            "worker_id": ask(ctx.get_worker_id),
        }

    @ray.remote(num_cpus=1)
    def in_task():
        return describe(ray.get_runtime_context())

    @ray.remote(num_cpus=1, max_restarts=1)
    class Probe:
        def info(self):
            ctx = ray.get_runtime_context()
            return dict(
                describe(ctx),
                reconstructed=ctx.was_current_actor_reconstructed,
                task_id=ctx.get_task_id(),
            )

        def crash(self):
            os._exit(1)

    d = describe(driver)
    t = ray.get(in_task.remote())
    probe = Probe.remote()
    a1 = ray.get(probe.info.remote())
    a2 = ray.get(probe.info.remote())
    probe.crash.remote()
    wait_until(ray, lambda: _reconstructed(ray, probe))
    a3 = ray.get(probe.info.remote())
    actor_hex = probe._actor_id.hex() if hasattr(probe._actor_id, "hex") else str(probe._actor_id)
    return {
        "driver": {k: d[k] for k in ("task_id_set", "actor_id", "node_known", "resources")},
        "task": {
            "task_id_set": t["task_id_set"],
            "actor_id": t["actor_id"],
            "node_known": t["node_known"],
            "resources": t["resources"],
            "same_job_as_driver": t["job_id"] == d["job_id"],
            "other_worker_than_driver": t["worker_id"] != d["worker_id"],
        },
        "actor": {
            "actor_id_is_handle_id": a1["actor_id"] == actor_hex,
            "resources": a1["resources"],
            "reconstructed_before": a1["reconstructed"],
            "reconstructed_after_restart": a3["reconstructed"],
            "task_ids_differ_per_call": a1["task_id"] != a2["task_id"],
            "same_worker_for_calls": a1["worker_id"] == a2["worker_id"],
            "new_worker_after_restart": a3["worker_id"] != a1["worker_id"],
        },
    }


def ask(getter):
    """The getter's answer, or the class of the error it raises (some are worker-only)."""
    try:
        return getter()
    except Exception as e:  # noqa: BLE001 - the error class is the observation
        return {"raises": type(e).__name__}


def _reconstructed(ray, probe):
    try:
        return ray.get(probe.info.remote(), timeout=5)["reconstructed"]
    except Exception:  # noqa: BLE001 - still restarting
        return False
