"""Lesson 3's two objects that do not come back, in Ray's own words: a worker node made `snap` (a
task with `max_retries=0`) and `stashed` (`ray.put` inside a task there), nobody read either,
and the node died.

Observed and compared: the error class each `ray.get` raises (`ObjectReconstructionFailedError`
and `OwnerDiedError`) and the reason code in the first one's message. Shown, not compared: both
messages as each backend prints them.
"""

from _cluster import BIG, SmallCluster
from _observe import get_or_error, unreconstructable_reasons
from _said import error as said_error


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("w", units=10)

        @ray.remote(max_retries=0)
        def snapshot():
            return b"s" * BIG

        @ray.remote
        def stash():
            return [ray.put(b"p" * BIG)]  # owned by this task's worker, on the node that will die

        w = {"resources": {"w": 1}}
        snap = snapshot.options(**w).remote()
        [stashed] = ray.get(stash.options(**w).remote())
        ray.wait([snap, stashed], num_returns=2, fetch_local=False)  # made; never read
        cluster.kill("w")
        out = {}
        for name, ref in (("snap", snap), ("stashed", stashed)):
            _, exc = get_or_error(ray, ref)
            out[name] = {
                "error": None if exc is None else type(exc).__name__,
                "reasons": [] if exc is None else unreconstructable_reasons(str(exc)),
                "_said_error": "" if exc is None else said_error(exc),
            }
        return out
    finally:
        cluster.close()
