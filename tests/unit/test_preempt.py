"""A spot node's preemption with notice (the preempt_node fault kind): the drain for preemption
that Ray 2.60 shows in `get_draining_nodes()`, then the node taken at the deadline, which is the
cloud's part (tests/conformance/scenarios/node_drain.py records the drain half on Ray). Its
target is a node, or an attempt just before one of its calls to the cluster, as the search tries
it; pause_node takes an attempt the same way."""

import time

from miniray import sim
from miniray.cluster_utils import Cluster


def _two_workers(ray):
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    nodes = cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)
    cluster.connect()
    return nodes


def _steps(ray, n):
    @ray.remote(max_retries=1)
    def steps():
        node = ray.get_runtime_context().get_node_id()
        seen = []
        for _ in range(n):
            time.sleep(1.0)
            seen.append(node in ray._private.state.state.get_draining_nodes())
        return node, seen

    return steps


def test_a_notice_then_the_node_is_taken_at_the_deadline_and_the_task_runs_again_elsewhere():
    import miniray as ray

    def scenario():
        first, second = _two_workers(ray)
        sim.preempt_node(first, deadline_s=3.0, at=2.5)
        return first.node_id, second.node_id, ray.get(_steps(ray, 6).remote())

    run = sim.run(scenario)
    first, second, (node, seen) = run.value
    (draining,) = [r for r in run.records if r.kind == sim.Kind.NODE_DRAINING]
    (died,) = [r for r in run.records if r.kind == sim.Kind.NODE_DIED]
    assert (draining.time, draining["deadline"], died.time, died["cause"]) == (2.5, 5.5, 5.5, "preempted")
    # Taken with the task still on it: the retry ran elsewhere, from the start, and a retry for a
    # preemption spends no budget (max_retries=1 would allow one more either way).
    assert node == second and seen == [False] * 6
    starts = [r for r in run.records if r.kind == sim.Kind.TASK_START]
    assert [r["node"] for r in starts] == ["node:1", "node:2"]


def test_an_idle_node_exits_on_its_notice_and_the_deadline_takes_nothing():
    import miniray as ray

    def scenario():
        first, _second = _two_workers(ray)
        sim.preempt_node(first, deadline_s=10.0, at=1.0)
        sim.sleep(20)
        return [n["DeathReason"] for n in ray.nodes() if n["NodeID"] == first.node_id]

    run = sim.run(scenario)
    (died,) = [r for r in run.records if r.kind == sim.Kind.NODE_DIED]
    assert run.value == [3] and died.time == 1.0 and died["cause"] != "preempted"


def test_the_notice_can_target_an_attempt_before_one_of_its_calls():
    import miniray as ray

    def scenario():
        _two_workers(ray)
        return ray.get(_steps(ray, 4).remote())

    # Calls 0, 1 are the first sleep and draining-table read: the notice lands before call 2.
    run = sim.run(scenario, faults=["preempt_node steps#1/1 step=2 deadline_s=30.0"])
    _node, seen = run.value
    assert seen == [False, True, True, True]
    (draining,) = [r for r in run.records if r.kind == sim.Kind.NODE_DRAINING]
    assert draining["node"] == "node:1" and draining.time == 1.0


def test_a_pause_can_target_an_attempt_before_one_of_its_calls():
    import miniray as ray

    def scenario():
        _two_workers(ray)
        return ray.get(_steps(ray, 2).remote())

    run = sim.run(scenario, faults=["pause_node steps#1/1 step=2 duration=5.0"])
    (paused,) = [r for r in run.records if r.kind == sim.Kind.NODE_PAUSED]
    assert paused["node"] == "node:1" and paused.time == 1.0 and run.virtual_time >= 7.0
