"""Objects have copies where they were read: Ray loses an object only when every copy is gone.

Rows:

* read_by_driver: a big object made on a worker node is read by the driver (`ray.get`), which
  leaves a copy on the driver's node; the worker node is then lost. The object is still there
  and its task does not run again.
* read_by_a_task_elsewhere: the same, read by a task on a second worker node (its argument is
  pulled there), as Ray's test_cached_object does.
* never_read: the object is only used on the node that made it; losing that node loses the
  object, and reading it runs its task again (lineage reconstruction).
"""

from _cluster import BIG, SmallCluster, on
from _observe import RunLog, outcome


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("maker")
        cluster.add("other")
        return {
            "read_by_driver": _read_by_driver(ray, cluster, workdir),
            "read_by_a_task_elsewhere": _read_elsewhere(ray, cluster, workdir),
            "never_read": _never_read(ray, cluster, workdir),
        }
    finally:
        cluster.close()


def _producer(ray, log):
    @ray.remote
    def produce():
        log.bump()
        return b"x" * BIG

    return produce


def _size_task(ray):
    @ray.remote
    def size(blob):
        return len(blob)

    return size


def _read_by_driver(ray, cluster, workdir):
    log = RunLog(workdir, "read_by_driver")
    obj = _producer(ray, log).options(**on("maker")).remote()
    first = outcome(ray, obj)  # the driver's node keeps a copy
    cluster.kill("maker")
    after = outcome(ray, obj)
    return {"first_get": first, "get_after_loss": after, "producer_runs": log.count()}


def _read_elsewhere(ray, cluster, workdir):
    log = RunLog(workdir, "read_elsewhere")
    size = _size_task(ray)
    obj = _producer(ray, log).options(**on("maker")).remote()
    first = outcome(ray, size.options(**on("other")).remote(obj))  # pulled to "other"
    cluster.kill("maker")
    after = outcome(ray, size.options(**on("other")).remote(obj))
    return {"reader_before": first, "reader_after_loss": after, "producer_runs": log.count()}


def _never_read(ray, cluster, workdir):
    log = RunLog(workdir, "never_read")
    size = _size_task(ray)
    obj = _producer(ray, log).options(**on("maker")).remote()
    first = outcome(ray, size.options(**on("maker")).remote(obj))  # read where it was made
    cluster.kill("maker")
    after = outcome(ray, size.options(**on("other")).remote(obj))
    return {"reader_before": first, "reader_after_loss": after, "producer_runs": log.count()}
