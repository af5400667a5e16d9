"""Draining a node (miniray/drain.py), as Ray 2.60 does it (tests/conformance/scenarios/node_drain.py
records the same on Ray): no new work there, running work goes on past the deadline, an idle
drained node exits with Ray's death reason, a body reads its node's deadline from
`ray._private.state.state.get_draining_nodes()`."""

import time

import pytest

from miniray import exceptions as E
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.faults import parse_token


def _records(kind):
    return [r for r in sim.event_log() if r.kind == kind]


def _row(ray, node):
    return next(n for n in ray.nodes() if n["NodeID"] == node.node_id)


def test_running_work_goes_on_past_the_deadline_and_the_idle_node_exits(ray_cluster):
    ray, cluster, runs = ray_cluster
    doomed = cluster.add_node(num_cpus=2, resources={"doomed": 2})
    other = cluster.add_node(num_cpus=2)

    @ray.remote
    def watch(seconds):
        """The learner's way to hear the notice: its node among the GCS's draining nodes."""
        me = ray.get_runtime_context().get_node_id()
        left = None
        for _ in range(int(seconds)):
            time.sleep(1.0)
            deadline_ms = ray._private.state.state.get_draining_nodes().get(me) if left is None else None
            if deadline_ms:
                left = deadline_ms / 1000 - time.time()
        return left

    @ray.remote
    def where():
        return ray.get_runtime_context().get_node_id()

    job = watch.options(resources={"doomed": 1}).remote(20)
    sim.drain_node(doomed, at=2.5, deadline_s=5)
    sim.sleep(3)
    assert _row(ray, doomed)["Alive"] and _row(ray, doomed)["DeathReason"] == 0
    pinned = where.options(resources={"doomed": 1}).remote()
    assert ray.get(where.remote()) == other.node_id  # doomed has a free CPU, and takes nothing new
    with pytest.raises(E.GetTimeoutError):
        ray.get(pinned, timeout=5)  # past the deadline (7.5 s): nothing was killed
    assert sim.now() > 7.5 and _row(ray, doomed)["Alive"]
    assert ray.get(job) == pytest.approx(4.5)  # saw it at 3 s: 4.5 s before the 7.5 s deadline
    assert sim.now() == 20
    sim.sleep(0)  # the node exits in the scheduling pass after the task's end
    row = _row(ray, doomed)
    assert (row["Alive"], row["DeathReason"], row["DeathReasonMessage"]) == (False, 3, "")
    assert ray._private.state.state.get_draining_nodes() == {}
    (died,) = _records(sim.Kind.NODE_DIED)
    assert (died.time, died.fields["cause"]) == (20, "drained")
    (draining,) = _records(sim.Kind.NODE_DRAINING)
    assert draining.fields == {"node": doomed.name, "reason": "DRAIN_NODE_REASON_PREEMPTION", "deadline": 7.5}


def test_hard_affinity_to_a_draining_node_is_unschedulable_and_soft_goes_elsewhere(ray_cluster):
    ray, cluster, _ = ray_cluster
    doomed = cluster.add_node(num_cpus=1, resources={"doomed": 1})
    other = cluster.add_node(num_cpus=1)
    affinity = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy

    @ray.remote
    def hold():
        time.sleep(10)

    @ray.remote
    def where():
        return ray.get_runtime_context().get_node_id()

    hold.options(resources={"doomed": 1}, num_cpus=0).remote()
    sim.drain_node(doomed, at=1)
    sim.sleep(1)
    with pytest.raises(E.TaskUnschedulableError):
        ray.get(where.options(scheduling_strategy=affinity(doomed.node_id, soft=False)).remote())
    assert (
        ray.get(where.options(scheduling_strategy=affinity(doomed.node_id, soft=True)).remote())
        == other.node_id
    )


def test_the_caller_kills_it_at_the_deadline_its_work_fails_as_preempted(ray_cluster):
    ray, cluster, _ = ray_cluster
    doomed = cluster.add_node(num_cpus=1, resources={"doomed": 1})

    @ray.remote(max_retries=0)
    def hold():
        time.sleep(60)

    @ray.remote(max_restarts=0)
    class Holder:
        def hold(self):
            time.sleep(60)

    actor = Holder.options(num_cpus=0, resources={"doomed": 0.5}).remote()
    task = hold.options(resources={"doomed": 0.5}).remote()
    call = actor.hold.remote()
    sim.drain_node(doomed, at=1, deadline_s=2)
    sim.kill_node(doomed, at=3)
    with pytest.raises(E.NodeDiedError):
        ray.get(task)
    with pytest.raises(E.ActorDiedError) as died:
        ray.get(call)
    assert died.value.preempted
    assert _row(ray, doomed)["DeathReason"] == 3


def test_idle_termination_is_refused_while_busy_and_accepted_when_idle(ray_cluster):
    ray, cluster, _ = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"spare": 1})

    @ray.remote
    def hold():
        time.sleep(2)

    ref = hold.options(resources={"spare": 1}).remote()
    gcs = ray._raylet.GcsClient(address=cluster.address)
    sim.sleep(1)
    assert gcs.drain_node(node.node_id, 1, "idle", 0) == (
        False,
        "The node to be idle terminated is no longer idle.",
    )
    assert ray._private.state.state.get_draining_nodes() == {}
    ray.get(ref)
    assert gcs.drain_node(node.node_id, 1, "idle", 0) == (True, "")
    sim.sleep(0)
    row = _row(ray, node)
    assert (row["Alive"], row["DeathReason"], row["DeathReasonMessage"]) == (False, 4, "idle")
    assert [r.fields["reason"] for r in _records(sim.Kind.NODE_DRAIN_REJECTED)] == [
        "DRAIN_NODE_REASON_IDLE_TERMINATION"
    ]


def test_a_drain_token_round_trips_and_a_wrong_reason_is_refused():
    fault = parse_token("drain_node node:1 after_event=9 deadline_s=30.0")
    assert (fault.reason, fault.deadline_s) == ("DRAIN_NODE_REASON_PREEMPTION", 30.0)
    assert fault.token() == "drain_node node:1 after_event=9 deadline_s=30.0"
    assert "no new work goes there" in fault.describe()
    with pytest.raises(ValueError, match="DRAIN_NODE_REASON_IDLE_TERMINATION"):
        parse_token("drain_node node:1 at=1.0 reason=SOON")


def test_a_drained_run_replays_byte_for_byte(ray_cluster):
    ray, cluster, _ = ray_cluster

    def once():
        sim.set_seed(0)
        ray.shutdown()
        c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
        ray.init(address=c.address)
        n = c.add_node(num_cpus=1)

        @ray.remote
        def work(i):
            time.sleep(3)
            return i

        refs = [work.remote(i) for i in range(3)]
        sim.drain_node(n, at=1, deadline_s=4)
        sim.kill_node(n, at=5)
        c.add_node(num_cpus=1)
        out = ray.get(refs)
        return out, sim.log_text()

    assert once() == once()


def test_a_preempted_node_costs_a_task_no_retry(ray_cluster):
    """Ray 2.60's task manager retries a task whose node a preemption drain took down without
    spending its budget, when it may retry at all (the recording's max_retries=1 case)."""
    ray, cluster, runs = ray_cluster
    first, second = cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)

    @ray.remote(max_retries=1)
    def work():
        runs.mark()
        time.sleep(10)
        return "done"

    ref = work.remote()
    for node, at in ((first, 1), (second, 8)):  # each attempt's node, drained then killed
        sim.drain_node(node, at=at, deadline_s=1)
        sim.kill_node(node, at=at + 1)
    cluster.add_node(num_cpus=1)
    assert ray.get(ref) == "done" and runs["body"] == 3
    fails = [r.fields["retry"] for r in _records(sim.Kind.TASK_FAIL)]
    assert fails == [True, True]
