"""Lesson 7's crash, in Ray's own words: a node's processes are killed under a running task.

Removing a node ungracefully kills its raylet on a host that stays up, so the GCS's health checks
are refused at once rather than left to time out. Ray still counts each refused check as one
failure and marks the node dead only after `health_check_failure_threshold` of them in a row;
the task (`max_retries=0`) then fails with `NodeDiedError`.

Observed and compared: the error class. Shown, not compared: the error's message and, on Ray,
the GCS's log lines for the failed checks (on miniray, its event log for the same run).
"""

import os

from _cluster import FAST_FAILURE_DETECTION
from _observe import get_or_error, is_miniray, wait_until
from _said import error as said_error
from _said import miniray_log, normalise

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": FAST_FAILURE_DETECTION}
    )
    started = os.path.join(workdir, "started")
    try:
        node = cluster.add_node(num_cpus=1, resources={"n1": 1})
        cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address)

        @ray.remote(max_retries=0, resources={"n1": 0.1})
        def work():
            open(started, "w").close()  # the body runs: now its node may die
            import time

            time.sleep(30)
            return "done"

        ref = work.remote()
        running = wait_until(ray, lambda: os.path.exists(started), limit_s=60)
        if running:
            cluster.remove_node(node, allow_graceful=False)
        _, exc = get_or_error(ray, ref, timeout=120)
        return {
            "started": running,
            "error": None if exc is None else type(exc).__name__,
            "_said_error": "" if exc is None else said_error(exc),
            "_said_log": _detector_log(ray, cluster),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def _detector_log(ray, cluster):
    """Ray: the GCS's lines for the node's failed health checks; miniray: its event log."""
    if is_miniray(ray):
        return miniray_log("cluster.remove_node", "node.died", "task.fail")
    path = os.path.join(cluster.head_node.get_logs_dir_path(), "gcs_server.out")
    wanted = ("Health check failed for node", "Node is dead because the health check failed")
    lines = []
    if wait_until(ray, lambda: _has(path, wanted[1]), limit_s=30):
        with open(path) as f:
            lines = [_message(line) for line in f if any(w in line for w in wanted)]
    return normalise("\n".join(lines))


def _has(path, text):
    if not os.path.exists(path):
        return False
    with open(path) as f:
        return text in f.read()


def _message(line):
    """A GCS log line without its time, level, pids and source location: the words after them."""
    head, _, rest = line.partition("] ")
    return rest.strip() if rest else line.strip()
