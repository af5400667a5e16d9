"""Streaming generator tasks (`num_returns="streaming"`, the default for a generator function):
what is retried after a crash, and what lineage reconstruction does after a yielded value is lost.

The reconstruction rows are seed 004's advice made visible: a lost item is rebuilt by running the
whole generator again, so a generator that yields something different on its second run (here:
which run it is) hands back a value the consumer never saw before. With max_retries=0 the loss
surfaces as an error instead, which the pipeline can handle at its boundary.
"""

import os

from _cluster import BIG, SmallCluster, on
from _observe import RunLog, describe_error, get_or_error, outcome

# Real Ray needs minutes for this one (restarts, timeouts, cancellations): checked against the
# recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("reader")
        cluster.add("work")
        out = {
            "basic": _basic(ray),
            "error_midway": _error_midway(ray),
            "crash_retried": _crash(ray, workdir),
        }
        cluster.add("gen")  # kill() starts a fresh "gen" node after each loss
        for retries in (1, 0):
            out[f"lost_item_max_retries_{retries}"] = _lost_item(ray, cluster, workdir, retries)
        return out
    finally:
        cluster.close()


def _basic(ray):
    @ray.remote(**on("work"))
    def count(n):
        # A loop, not `yield from range(n)`: Ray 2.60 fails that with "'range_iterator' object
        # has no attribute 'send'".
        for i in range(n):  # noqa: UP028
            yield i

    gen = count.remote(3)
    kind = type(gen).__name__
    return {"kind": kind, "values": [ray.get(ref) for ref in gen], "explicit": _explicit(ray)}


def _explicit(ray):
    @ray.remote(num_returns="streaming", **on("work"))
    def count(n):
        for i in range(n):
            yield i * 10

    return [ray.get(ref) for ref in count.remote(2)]


def _error_midway(ray):
    @ray.remote(**on("work"))
    def fails_after_two():
        yield "a"
        yield "b"
        raise ValueError("stream broke")

    items = [outcome(ray, ref) for ref in fails_after_two.remote()]
    return {"items": items}


def _crash(ray, workdir):
    log = RunLog(workdir, "crashing_generator")

    @ray.remote(max_retries=1, **on("work"))
    def crashes_once(log):
        run = log.bump()
        for i in range(4):
            if run == 1 and i == 2:
                os._exit(1)
            yield i

    values = [outcome(ray, ref) for ref in crashes_once.remote(log)]
    return {"values": values, "runs": log.count()}


def _lost_item(ray, cluster, workdir, retries):
    log = RunLog(workdir, f"volatile_{retries}")

    @ray.remote(max_retries=retries, **on("gen"))
    def volatile_feed(log):
        run = log.bump()  # stands in for the clock, a random draw or an external feed
        for i in range(2):
            yield bytes([run, i]) + b"x" * BIG

    @ray.remote
    def head(blob):
        return list(blob[:2])

    refs = list(volatile_feed.remote(log))
    # Read on the producing node: a read elsewhere would leave a copy there that survives the loss.
    first = [ray.get(head.options(**on("gen")).remote(ref)) for ref in refs]
    cluster.kill("gen")
    _, error = get_or_error(ray, head.options(**on("reader")).remote(refs[0]))
    again = None if error is not None else ray.get(head.options(**on("reader")).remote(refs[0]))
    return {
        "first_read": first,
        "after_loss": again,
        "after_loss_error": describe_error(ray, error),
        "generator_runs": log.count(),
    }
