"""The failure detector: a crash is conclusive at one probe, a hang needs three; presumed death
re-runs a paused node's work elsewhere while the paused attempt runs on (a zombie)."""

import time

import pytest

import miniray
from miniray import context, liveness, sim
from miniray.cluster_utils import Cluster

# As the live_cluster fixture in conftest.py (not imported: tests/ holds several conftest modules).
LIVENESS = {"liveness": {"probe_interval_s": 5, "unhealthy_threshold": 3}}


def records(kind, **match):
    return [r for r in sim.event_log() if r.kind == kind and all(r.get(k) == v for k, v in match.items())]


def test_crash_is_dead_at_the_next_probe(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(20)
        return "ok"

    ref = work.remote()
    sim.kill_node(n1, at=7)
    assert miniray.get(ref) == "ok"
    dead = records("liveness.dead", node=n1.name)
    assert len(dead) == 1 and dead[0]["cause"] == "crashed"
    assert 7 < dead[0].time <= 7 + 5  # within one probe interval
    assert not records("liveness.suspect", node=n1.name)  # no threshold for a crash


def test_hang_goes_suspect_then_dead_after_three_probes(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(30)
        return "ok"

    ref = work.remote()
    sim.hang_node(n1, at=2)
    assert miniray.get(ref) == "ok"
    suspect, dead = records("liveness.suspect", node=n1.name), records("liveness.dead", node=n1.name)
    assert [r.time for r in records("liveness.probe_failed", node=n1.name)] == [5, 10, 15]
    assert suspect[0].time == 5 and dead[0].time == 15 and dead[0]["cause"] == "unresponsive"
    assert 2 * 5 < dead[0].time - 2 <= 3 * 5  # about three intervals after the hang
    # Re-run on the other node after the retry delay: 15 + 1 + 30.
    assert sim.now() == 46


def test_short_pause_recovers_from_suspect_without_a_rerun(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(20)
        return "ok"

    ref = work.remote()
    sim.pause_node(n1, 7.0, at=2)  # frozen 2..9: fails the probes at 5, answers at 10
    assert miniray.get(ref) == "ok"
    assert len(records("task.start")) == 1  # one attempt (its body replays, but never re-runs)
    assert [r.time for r in records("liveness.suspect")] == [5]
    assert [r.time for r in records("liveness.alive")] == [10]
    assert not records("liveness.dead")


def test_paused_node_attempt_overlaps_its_rerun(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        start = sim.now()
        time.sleep(20)
        return start

    ref = work.remote()
    sim.pause_node(n1, 30.0, at=2)  # frozen 2..32; presumed dead at 15
    assert miniray.get(ref) == 16  # the re-run started at 15 + 1 s retry delay
    starts = {r["attempt"]: r.time for r in records("task.start")}
    assert starts == {"work#1/1": 0, "work#1/2": 16}
    sim.sleep(10)  # let the paused node resume at 32
    zombie = records("liveness.zombie_finished")
    assert len(zombie) == 1 and zombie[0]["attempt"] == "work#1/1" and zombie[0].time == 32
    finish = records("task.finish")
    assert [(r["attempt"], r.time) for r in finish] == [("work#1/2", 36)]
    # Two attempts of the same task were running during [16, 32].
    assert starts["work#1/2"] < zombie[0].time
    assert miniray.get(ref) == 16  # the zombie's late result did not overwrite the retry's


def test_presumed_dead_node_gets_no_new_work(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    n2 = live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def where():
        time.sleep(1)
        return 1

    @miniray.remote
    def long():
        time.sleep(60)

    long.remote()
    sim.hang_node(n1, at=1)
    sim.sleep(20)
    assert not n1.alive and liveness.detector_of().state(n1) == liveness.DEAD
    refs = [where.remote() for _ in range(3)]
    miniray.get(refs)
    nodes = {r["node"] for r in records("task.start", task="where")}
    assert nodes == {n2.name}


def test_detector_off_by_default_keeps_the_old_behaviour(ray_cluster):
    ray, cluster, runs = ray_cluster
    n1 = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)

    @ray.remote
    def work():
        runs.mark()
        time.sleep(2)
        return 1

    ref = work.remote()
    sim.hang_node(n1, at=1)
    with pytest.raises(ray.exceptions.GetTimeoutError):
        ray.get(ref, timeout=100)
    assert len(records("task.start")) == 1 and liveness.detector_of() is None


def test_enable_explicitly_and_errors_name_the_fix(ray_cluster):
    ray, cluster, _ = ray_cluster
    det = liveness.enable(probe_interval_s=2, unhealthy_threshold=2)
    assert det.interval == 2 and det.threshold == 2
    with pytest.raises(RuntimeError, match="already enabled"):
        liveness.enable()
    with pytest.raises(ValueError, match="probe_interval_s must be > 0"):
        liveness.Detector(context.current(), probe_interval_s=0)


def test_probe_pump_stops_when_idle(live_cluster):
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def quick():
        return 1

    assert miniray.get(quick.remote()) == 1
    sim.sleep(100)
    probes_after = [r for r in sim.event_log() if r.kind.startswith("liveness.probe") and r.time > 10]
    assert probes_after == []


def test_native_crash_window_is_visible_in_the_ledger_only_after_the_probe(live_cluster):
    # The core fails the attempt at once; the detector's verdict comes at the next probe.
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(20)

    ref = work.remote()
    sim.kill_node(n1, at=11)
    miniray.get(ref)
    died = records("node.died", node=n1.name)[0]
    dead = records("liveness.dead", node=n1.name)[0]
    assert (died.time, dead.time) == (11, 15)


def test_actor_on_a_presumed_dead_node_restarts_elsewhere(live_cluster):
    live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote(max_restarts=1, max_task_retries=1)
    class Counter:
        def __init__(self):
            self.n = 0

        def inc(self):
            self.n += 1
            return self.n

    c = Counter.remote()
    assert miniray.get(c.inc.remote()) == 1
    node = c._actor.node
    sim.hang_node(node)
    ref = c.inc.remote()
    assert miniray.get(ref) == 1  # a fresh instance on the other node
    assert records("liveness.dead", node=node.name)
    assert c._actor.node is not node


def _zombie_run():
    sim.set_seed(3)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": LIVENESS})
    miniray.init(address=c.address)
    try:
        n1 = c.add_node(num_cpus=1)
        c.add_node(num_cpus=1)

        @miniray.remote
        def work():
            time.sleep(20)
            return 1

        ref = work.remote()
        sim.pause_node(n1, 30.0, at=2)
        miniray.get(ref)
        sim.sleep(10)
        return sim.log_text()
    finally:
        miniray.shutdown()
        c.shutdown()


def test_detector_runs_replay_byte_for_byte():
    assert _zombie_run() == _zombie_run()


def test_crashed_nodes_task_is_rerun_at_the_verdict_not_at_the_crash(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(20)
        return "ok"

    ref = work.remote()
    sim.kill_node(n1, at=7)
    assert miniray.get(ref) == "ok"
    dead = records("liveness.dead", node=n1.name)[0]
    failed = records("task.fail")
    assert dead.time == 10  # the first probe after the crash
    assert [(r.time, r["cause"], r["retry"]) for r in failed] == [(10, "node_died", True)]
    # The retry follows the verdict by the usual retry delay (1 s), then runs its 20 s.
    assert [r.time for r in records("task.start")] == [0, 11]
    assert sim.now() == 31


def test_state_and_history_accept_any_way_of_naming_a_node(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)

    @miniray.remote
    def work():
        time.sleep(30)

    ref = work.remote()
    sim.hang_node(n1, at=2)
    miniray.get(ref)
    detector = liveness.detector_of()
    entry = next(n for n in miniray.nodes() if n["NodeID"] == n1.node_id)
    for form in (n1, entry, n1.node_id, n1.name):
        assert detector.state(form) == liveness.DEAD == "DEAD"
    changes = [(t.time, t.state, t.cause) for t in detector.history(entry)]
    assert changes == [(5, liveness.SUSPECT, "probe timeout"), (15, liveness.DEAD, "unresponsive")]
    assert all(t.node == n1.name for t in detector.history(n1))
    assert detector.history() == sorted(detector.history(), key=lambda t: t.time)
    with pytest.raises(ValueError, match="not a node of this cluster"):
        detector.state("node:99")
