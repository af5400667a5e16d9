"""The node holding an actor task's output is removed.

Row of issue 2: the output is reconstructed only if the actor can restart and
the method can be retried (max_restarts and max_task_retries both allow it).
"""

from _actors import watch_states
from _cluster import BIG, SmallCluster, on
from _observe import RunLog, error_text, outcome, unreconstructable_reasons

CASES = (
    ("restart_and_retry", {"max_restarts": 1, "max_task_retries": 1}),
    ("restart_no_retry", {"max_restarts": 1, "max_task_retries": 0}),
    ("defaults", {}),
)


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("reader")
        for label, _ in CASES:
            # Two units: the actor holds one for its lifetime, a consumer needs the other.
            cluster.add(label, units=2)
        return {label: _case(ray, cluster, workdir, label, options) for label, options in CASES}
    finally:
        cluster.close()


def _case(ray, cluster, workdir, label, options):
    init_log = RunLog(workdir, label + "_init")
    method_log = RunLog(workdir, label + "_method")

    @ray.remote
    class Producer:
        def __init__(self):
            init_log.bump()

        def produce(self):
            method_log.bump()
            return b"x" * BIG

    @ray.remote
    def size(blob):
        return len(blob)

    # num_cpus=0 as in Ray's test_basic_reconstruction_actor_task: the node's
    # only CPU stays free for the consumer task.
    actor = Producer.options(num_cpus=0, **on(label), **options).remote()
    x = actor.produce.remote()
    before = outcome(ray, size.options(**on(label)).remote(x))
    cluster.kill(label)
    downstream = size.options(**on("reader")).remote(x)
    after = outcome(ray, downstream)
    # The restart (if any) may still be under way: wait for it to settle before
    # counting __init__ runs.
    states = watch_states(ray, actor, lambda seen: seen[-1] in ("ALIVE", "DEAD"))
    return {
        "consumer_before": before,
        "consumer_after_loss": after,
        "reasons": unreconstructable_reasons(error_text(ray, downstream)),
        "settled_state": states[-1],
        "method_runs": method_log.count(),
        "init_runs": init_log.count(),
    }
