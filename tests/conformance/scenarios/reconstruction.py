"""Lineage reconstruction: the node holding a task's output is removed.

Rows of issue 2: with default retries a consumer's get succeeds because the
producer re-runs, and a chain x -> y is rebuilt recursively.
"""

from _cluster import BIG, SmallCluster, on
from _observe import RunLog, outcome


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("reader")  # survives: consumers run here after the loss
        cluster.add("basic")
        cluster.add("chain")
        return {
            "single_object": _single(ray, cluster, workdir),
            "chain": _chain(ray, cluster, workdir),
        }
    finally:
        cluster.close()


def _single(ray, cluster, workdir):
    log = RunLog(workdir, "single_produce")

    @ray.remote
    def produce():
        log.bump()
        return b"x" * BIG

    @ray.remote
    def size(blob):
        return len(blob)

    x = produce.options(**on("basic")).remote()
    before = outcome(ray, size.options(**on("basic")).remote(x))
    cluster.kill("basic")
    after = outcome(ray, size.options(**on("reader")).remote(x))
    return {"consumer_before": before, "consumer_after_loss": after, "producer_runs": log.count()}


def _chain(ray, cluster, workdir):
    x_log = RunLog(workdir, "chain_x")
    y_log = RunLog(workdir, "chain_y")

    @ray.remote
    def make_x():
        x_log.bump()
        return b"x" * BIG

    @ray.remote
    def make_y(x):
        y_log.bump()
        return x + b"y"

    @ray.remote
    def size(blob):
        return len(blob)

    x = make_x.options(**on("chain")).remote()
    y = make_y.options(**on("chain")).remote(x)
    before = outcome(ray, size.options(**on("chain")).remote(y))
    cluster.kill("chain")
    after = outcome(ray, size.options(**on("reader")).remote(y))
    return {
        "consumer_before": before,
        "consumer_after_loss": after,
        "x_runs": x_log.count(),
        "y_runs": y_log.count(),
    }
