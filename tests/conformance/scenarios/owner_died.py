"""An object created by ray.put inside a task or actor whose worker (its owner) died.

Row of issue 2: getting it raises OwnerDiedError. The task's worker dies with
its node; the actor's worker is killed with ray.kill.
"""

from _actors import dead, watch_states
from _cluster import BIG, SmallCluster, on
from _observe import outcome, pass_time

# 70 s on real Ray under load, and once (a clean-clone make test) a get right after the owner's
# kill read the value before Ray noticed the death: checked against its recording in `make test`
# (twice the same in record.py), live in `make conformance-live`.
LIVE_ON_RAY = False

GET_TIMEOUT_S = 30  # a hang would be a finding, not a stuck suite


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("reader")
        cluster.add("owner")
        return {
            "task_owner_node_removed": _task_owner(ray, cluster),
            "actor_owner_killed": _actor_owner(ray),
        }
    finally:
        cluster.close()


def _task_owner(ray, cluster):
    @ray.remote
    def put_inside():
        return [ray.put(b"x" * BIG)]

    @ray.remote
    def size(blob):
        return len(blob)

    [inner] = ray.get(put_inside.options(**on("owner")).remote())
    before = outcome(ray, size.options(**on("reader")).remote(inner), GET_TIMEOUT_S)
    cluster.kill("owner")
    return {
        "consumer_before": before,
        "direct_get": outcome(ray, inner, GET_TIMEOUT_S),
        "downstream_get": outcome(ray, size.options(**on("reader")).remote(inner), GET_TIMEOUT_S),
    }


def _actor_owner(ray):
    @ray.remote
    class Keeper:
        def put_inside(self):
            return [ray.put(b"x" * BIG)]

    keeper = Keeper.options(**on("reader")).remote()
    [inner] = ray.get(keeper.put_inside.remote())
    before = outcome(ray, inner, GET_TIMEOUT_S)
    ray.kill(keeper)
    # ray.kill returns before the process is gone: wait until the actor is DEAD.
    # Then give the death notice time to reach the driver, which borrows the
    # object: on real Ray a get in the first moments after DEAD can still return
    # the copy the driver fetched above (seen once); a second later it raises.
    state = watch_states(ray, keeper, dead)[-1]
    pass_time(ray, 1.0)
    after = outcome(ray, inner, GET_TIMEOUT_S)
    return {
        "get_before": before,
        "state_after_kill": state,
        "get_after_kill": after,
    }
