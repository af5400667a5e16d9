"""Injected faults: timed node death, worker kills, pauses, hangs, lost copies."""

import time

import pytest

from miniray import exceptions as E
from miniray import sim


def test_timed_node_kill_fails_the_running_attempt_and_retries(ray_cluster):
    ray, cluster, runs = ray_cluster
    n1 = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)

    @ray.remote
    def work():
        runs.mark()
        time.sleep(10)
        return "done"

    ref = work.remote()
    sim.kill_node(n1, at=4)
    assert ray.get(ref) == "done"
    assert runs["body"] == 2 and sim.now() == 4 + 1 + 10
    assert any(r.kind == "node.died" and r.time == 4 for r in sim.event_log())


def test_node_death_without_retries_is_node_died_error(ray_cluster):
    ray, cluster, _ = ray_cluster
    n1 = cluster.add_node(num_cpus=1)

    @ray.remote(max_retries=0)
    def work():
        time.sleep(10)

    ref = work.remote()
    sim.kill_node(n1, at=1)
    with pytest.raises(E.NodeDiedError):
        ray.get(ref)


def test_kill_worker_by_node(ray_cluster):
    ray, cluster, runs = ray_cluster
    n1 = cluster.add_node(num_cpus=1)

    @ray.remote(max_retries=1)
    def work():
        runs.mark()
        time.sleep(5)
        return "ok"

    ref = work.remote()
    sim.kill_worker(n1, at=2)
    assert ray.get(ref) == "ok" and runs["body"] == 2
    assert sim.now() == 2 + 1 + 5


def test_paused_node_delays_its_work(ray_cluster):
    ray, cluster, _ = ray_cluster
    n1 = cluster.add_node(num_cpus=1)

    @ray.remote
    def work():
        time.sleep(2)
        return sim.now()

    ref = work.remote()
    sim.pause_node(n1, 5.0, at=1)
    assert ray.get(ref) == 6.0  # woke at 2, frozen until 6
    # The state change is a record of its own, after the fault's, and its end another.
    said = [
        (r.time, r.kind, r.fields)
        for r in sim.event_log()
        if r.kind.startswith(("fault", "node.p", "node.r"))
    ]
    token = f"pause_node {n1.node_id} at=1 duration=5.0"
    assert said == [
        (1, "fault", {"fault": token}),
        (1, "node.paused", {"node": n1.name, "until": 6.0}),
        (6.0, "node.resumed", {"node": n1.name}),
    ]


def test_hung_node_never_finishes_and_get_times_out(ray_cluster):
    ray, cluster, _ = ray_cluster
    n1 = cluster.add_node(num_cpus=1)

    @ray.remote
    def work():
        time.sleep(2)
        return 1

    ref = work.remote()
    sim.hang_node(n1, at=1)
    with pytest.raises(E.GetTimeoutError):
        ray.get(ref, timeout=100)
    frozen = [r.fields for r in sim.event_log() if r.kind in ("node.paused", "node.resumed")]
    assert frozen == [{"node": n1.name}]  # no `until`: hung for good, and never resumed


def test_a_pause_of_a_dead_node_freezes_nothing_and_says_nothing(ray_cluster):
    ray, cluster, _ = ray_cluster
    n1 = cluster.add_node(num_cpus=1)
    sim.kill_node(n1, at=1)
    sim.pause_node(n1, 5.0, at=2)
    sim.sleep(10)
    kinds = [r.kind for r in sim.event_log() if r.time > 0]
    assert kinds.count("fault") == 2 and "node.paused" not in kinds and "node.resumed" not in kinds


def test_kill_actor_process_restarts_it(ray):
    @ray.remote(max_restarts=1)
    class A:
        def __init__(self):
            self.n = 0

        def inc(self):
            self.n += 1
            return self.n

    a = A.remote()
    assert ray.get(a.inc.remote()) == 1
    sim.kill_actor(a)
    assert ray.get(a.inc.remote()) == 1
