"""Lineage reconstruction that cannot happen: retries disabled, or used up.

Rows of issue 2: producer max_retries=0 -> ObjectReconstructionFailedError whose
message contains OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED, and a downstream task
gets RayTaskError(ObjectReconstructionFailedError); max_retries=1 with the node
lost twice -> the second loss gives the same class with
OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED.
"""

from _cluster import BIG, SmallCluster, on
from _observe import RunLog, error_text, outcome, unreconstructable_reasons


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("reader")
        cluster.add("no_retry")
        cluster.add("one_retry")
        return {
            "retries_disabled": _retries_disabled(ray, cluster, workdir),
            "lost_twice_max_retries_1": _lost_twice(ray, cluster, workdir),
        }
    finally:
        cluster.close()


def _tasks(ray, log):
    @ray.remote
    def produce():
        log.bump()
        return b"x" * BIG

    @ray.remote
    def size(blob):
        return len(blob)

    return produce, size


def _retries_disabled(ray, cluster, workdir):
    log = RunLog(workdir, "no_retry_produce")
    produce, size = _tasks(ray, log)
    x = produce.options(max_retries=0, **on("no_retry")).remote()
    before = outcome(ray, size.options(**on("no_retry")).remote(x))
    cluster.kill("no_retry")
    downstream = size.options(**on("reader")).remote(x)
    return {
        "consumer_before": before,
        "downstream_get": outcome(ray, downstream),
        "downstream_reasons": unreconstructable_reasons(error_text(ray, downstream)),
        "direct_get": outcome(ray, x),
        "direct_reasons": unreconstructable_reasons(error_text(ray, x)),
        "producer_runs": log.count(),
    }


def _lost_twice(ray, cluster, workdir):
    log = RunLog(workdir, "one_retry_produce")
    produce, size = _tasks(ray, log)
    x = produce.options(max_retries=1, **on("one_retry")).remote()
    before = outcome(ray, size.options(**on("one_retry")).remote(x))
    cluster.kill("one_retry")
    # Rebuilt on the replacement "one_retry" node (the only place produce can run).
    after_first_loss = outcome(ray, size.options(**on("one_retry")).remote(x))
    cluster.kill("one_retry")
    downstream = size.options(**on("reader")).remote(x)
    return {
        "consumer_before": before,
        "consumer_after_first_loss": after_first_loss,
        "downstream_after_second_loss": outcome(ray, downstream),
        "downstream_reasons": unreconstructable_reasons(error_text(ray, downstream)),
        "direct_get_after_second_loss": outcome(ray, x),
        "direct_reasons": unreconstructable_reasons(error_text(ray, x)),
        "producer_runs": log.count(),
    }
