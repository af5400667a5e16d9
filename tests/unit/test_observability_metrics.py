"""Metrics over virtual time: the dashboard's golden signals sampled from state at event times."""

import time

import pytest

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util.placement_group import placement_group

GB = 10**9


def test_pending_and_running_tasks_follow_the_backlog(ray):
    m = sim.metrics()

    @ray.remote
    def work():
        time.sleep(2)

    ray.get([work.remote() for _ in range(6)])  # 4 CPUs: 4 run, 2 wait, then those 2 run
    assert m.series("running_tasks") == [(0, 4), (2, 2), (4, 0)]
    assert m.series("pending_tasks") == [(0, 2), (2, 0)]
    assert m.value("running_tasks", at=3) == 2 and m.peak("pending_tasks") == 2


def test_a_lone_sleeping_task_is_seen_running_for_its_whole_sleep(ray):
    m = sim.metrics()

    @ray.remote
    def nap():
        time.sleep(5)  # nothing overlaps: the clock jumps inside one event

    ray.get(nap.remote())
    assert m.series("running_tasks") == [(0, 1), (5, 0)]  # sampled as the clock left 0, mid-body


def test_object_store_fill_and_spill_series_per_node():
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "object_store_memory": 4 * GB})
    miniray.init(address=c.address)
    try:
        m = sim.metrics()
        refs = []
        for i in range(6):
            refs.append(miniray.put(sim.Blob(GB, str(i))))
            sim.sleep(1)
        fill = m.series("object_store_fill_pct", node="node:0")
        assert fill == [(0, 25.0), (1, 50.0), (2, 75.0), (3, 100.0)]  # then full: it stays at 100
        assert m.series("spilled_bytes", node="node:0") == [(0, 0), (4, GB), (5, 2 * GB)]
        assert m.series("spilled_bytes_total", node="node:0")[-1] == (5, 2 * GB)
        del refs[:3]  # two of those were on disk, one in memory
        assert m.value("object_store_fill_pct", at=sim.now(), node="node:0") == 75.0
        assert m.value("spilled_bytes", at=sim.now(), node="node:0") == 0
        with pytest.raises(KeyError, match="Pass node= one of"):
            m.series("object_store_fill_pct")
        with pytest.raises(KeyError, match="Known series"):
            m.series("no_such_metric")
    finally:
        miniray.shutdown()
        c.shutdown()


def test_actor_restarts_are_counted(ray):
    m = sim.metrics()

    @ray.remote(max_restarts=2)
    class A:
        def ping(self):
            return 1

    a = A.remote()
    ray.get(a.ping.remote())
    for at in (1, 3):
        sim.kill_actor(a, at=at)
    sim.sleep(5)
    assert ray.get(a.ping.remote()) == 1
    assert m.series("actor_restarts") == [(0, 0), (2, 1), (4, 2)]  # each restart 1 s after its crash


def test_placement_group_hot_loop_attempts_climb_220k_per_second_without_settling_it():
    sim.set_seed(0)
    sel = [{"tier": "L1"}, {"tier": "L2"}]
    c = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "_system_config": {"placement_group_queue_policy": "ray-2.60"}},
    )
    miniray.init(address=c.address)
    try:
        m = sim.metrics()
        nodes = [c.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2", "L1", "L2")]
        a = placement_group([{"CPU": 1}, {"CPU": 1}], name="PG_A", bundle_label_selector=sel)
        b = placement_group([{"CPU": 1}, {"CPU": 1}], name="PG_B", bundle_label_selector=sel)
        miniray.get([a.ready(), b.ready()])
        c.remove_node(nodes[1])
        sim.sleep(1.0)
        t1, n1 = sim.now(), m.value("pg_scheduling_attempts", at=sim.now())
        sim.sleep(3.0)
        t4, n4 = sim.now(), m.value("pg_scheduling_attempts", at=sim.now())
        rate = (n4 - n1) / (t4 - t1)
        assert abs(rate - 1 / 4.5e-6) < 1  # 222,222 attempts per virtual second, as Ray 2.60 showed
    finally:
        miniray.shutdown()
        c.shutdown()


def test_sampling_changes_nothing_about_the_run():
    def scenario(with_metrics):
        def run():
            miniray.init(num_cpus=2)
            if with_metrics:
                sim.metrics()

            @miniray.remote(max_retries=2)
            def f(i):
                time.sleep(i % 3)
                return i

            return miniray.get([f.remote(i) for i in range(8)])

        return run

    plain, sampled = sim.run(scenario(False), seed=3), sim.run(scenario(True), seed=3)
    assert plain.error is None and plain.value == sampled.value
    assert plain.log_text == sampled.log_text and plain.events == sampled.events


def test_metrics_need_a_cluster_and_say_so():
    miniray.shutdown()
    with pytest.raises(RuntimeError, match="call miniray.init"):
        sim.metrics()


def test_timeline_shows_the_series_as_counter_tracks(ray):
    sim.metrics()
    keep = ray.put(sim.Blob(GB))
    events = ray.timeline()
    fill = [e for e in events if e["ph"] == "C" and e["name"] == "object_store_fill_pct"]
    assert fill[-1]["args"]["object_store_fill_pct"] == pytest.approx(100 * GB / 2**31, rel=1e-6)
    assert keep


def test_golden_signals_show_the_mystery_slowdown_store_full_and_spilling():
    """Seed section 5(a): the store pinned near 100% with a non-zero spill rate."""
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "object_store_memory": 4 * GB})
    miniray.init(address=c.address)
    try:
        m = sim.metrics()
        refs = [miniray.put(sim.Blob(GB, str(i))) for i in range(3)]
        sim.sleep(10)
        calm = m.golden(window=10)
        assert calm["object_store_fill_pct"] == {"node:0": 75.0}
        assert calm["spill_rate_bytes_per_s"] == {"node:0": 0.0} and calm["pending_tasks"] == 0
        for i in range(3, 8):  # five more 1 GB blocks, one a second: four spill
            refs.append(miniray.put(sim.Blob(GB, str(i))))
            sim.sleep(1)
        hot = m.golden(window=5)
        assert hot["object_store_fill_pct"] == {"node:0": 100.0}
        assert hot["spill_rate_bytes_per_s"] == {"node:0": 4 * GB / 5}  # 4 GB spilled in the last 5 s
        assert m.rate("spilled_bytes_total", node="node:0", window=5) == 0.8 * GB
    finally:
        miniray.shutdown()
        c.shutdown()
