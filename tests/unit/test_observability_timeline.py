"""`miniray.timeline()`: Chrome trace JSON with a track per node and a thread per worker, attempts
as slices, and retries, crashes, restarts, reconstruction, placement groups and liveness visible."""

import json
import time

import pytest

import miniray
from faultlines.fleet import fleet_timeline
from faultlines.fleet import scenarios as fleet_scenarios
from miniray import liveness, sim
from miniray.cluster_utils import Cluster
from miniray.util import state
from miniray.util.placement_group import placement_group

BIG = 200_000  # stored in the node's object store, so losing the node loses it


def slices(events, name=None):
    return [e for e in events if e["ph"] == "X" and (name is None or e["name"] == name)]


def instants(events, prefix=""):
    return [e for e in events if e["ph"] == "i" and e["name"].startswith(prefix)]


def names(events, kind):
    """{(pid, tid): name} for thread_name metadata, or {pid: name} for process_name."""
    if kind == "process_name":
        return {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == kind}
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == kind}


def check_valid(events):
    """What Perfetto's JSON importer needs: phases it knows, numeric times, named tracks."""
    procs, threads = names(events, "process_name"), names(events, "thread_name")
    for e in events:
        assert e["ph"] in ("X", "i", "M", "C"), e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
        if e["ph"] == "M":
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
        assert isinstance(e["name"], str) and isinstance(e["cat"], str) and isinstance(e["args"], dict), e
        assert e["pid"] in procs, e
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
        if e["ph"] in ("X", "i"):
            assert (e["pid"], e["tid"]) in threads, e
    json.dumps(events)  # JSON-safe all the way down


@pytest.fixture
def three_nodes():
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=c.address)
    nodes = [c.add_node(num_cpus=2) for _ in range(2)]
    yield c, nodes
    miniray.shutdown()
    c.shutdown()


def test_writes_parseable_chrome_trace_json_like_ray_timeline(ray, tmp_path):
    @ray.remote
    def f(x):
        time.sleep(x)
        return x

    ray.get([f.remote(i) for i in (1, 2, 3)])
    path = tmp_path / "trace.json"
    assert ray.timeline(str(path)) is None  # Ray's contract: write the file, return nothing
    events = json.loads(path.read_text())
    assert events == ray.timeline()
    check_valid(events)
    fs = slices(events, "f")
    assert [(e["ts"], e["dur"]) for e in fs] == [(0, 1e6), (0, 2e6), (0, 3e6)]  # microseconds
    assert all(e["args"]["outcome"] == "FINISHED" and e["cat"] == "task" for e in fs)
    tasks = {t.task_id: t for t in state.list_tasks()}
    for e in fs:  # the args Ray's own timeline test checks on every slice
        assert {"task_id", "func_or_class_name", "job_id", "actor_id", "attempt_number"} <= set(e["args"])
        assert tasks[e["args"]["task_id"]].name == e["args"]["func_or_class_name"] == "f"
        assert e["args"]["actor_id"] is None and e["args"]["worker_id"]


def test_one_track_per_node_and_one_thread_per_worker(three_nodes):
    c, nodes = three_nodes

    @miniray.remote(scheduling_strategy="SPREAD")
    def f():
        time.sleep(1)
        return 1

    miniray.get([f.remote() for _ in range(4)])
    events = miniray.timeline()
    check_valid(events)
    procs = names(events, "process_name")
    assert sorted(procs.values()) == ["cluster (GCS)", "node:0", "node:1", "node:2"]
    by_node = {}
    for e in slices(events, "f"):
        assert procs[e["pid"]] == e["args"]["node"]
        assert e["tid"] == e["args"]["worker"]  # the thread is the worker process
        by_node.setdefault(e["args"]["node"], set()).add(e["tid"])
    assert {k: len(v) for k, v in by_node.items()} == {"node:1": 2, "node:2": 2}
    threads = names(events, "thread_name")
    assert sum(1 for n in threads.values() if n.startswith("worker pid=")) == 4
    assert any(n.startswith("driver pid=") for n in threads.values())


def test_retries_show_as_numbered_attempts_that_name_what_they_retry(ray):
    @ray.remote(max_retries=3, retry_exceptions=True)
    def flaky():
        if sim.now() < 2:
            raise ValueError("transient")
        return "ok"

    assert ray.get(flaky.remote()) == "ok"
    attempts = slices(ray.timeline(), "flaky")
    assert [e["args"]["attempt_number"] for e in attempts] == [0, 1, 2]
    assert [e["ts"] / 1e6 for e in attempts] == [0, 1, 2]  # Ray's ~1 s between attempts
    assert [e["args"]["outcome"] for e in attempts] == ["error: ValueError"] * 2 + ["FINISHED"]
    assert [e["args"].get("retried") for e in attempts] == [True, True, None]
    assert attempts[2]["args"]["retry_of"] == "flaky#1/2"
    assert [e.get("cname") for e in attempts] == [
        "terrible",
        "terrible",
        "yellow",
    ]  # chrome://tracing colours


def test_node_death_ends_the_attempt_marks_the_crash_and_the_retry_runs_elsewhere(three_nodes):
    c, nodes = three_nodes

    @miniray.remote(max_retries=1)
    def work():
        time.sleep(10)
        return 1

    ref = work.remote()
    sim.sleep(4)
    victim = next(n for n in nodes if n.workers and any(w.body for w in n.workers))
    c.remove_node(victim)
    assert miniray.get(ref) == 1
    events = miniray.timeline()
    check_valid(events)
    first, second = slices(events, "work")
    assert first["dur"] == 4e6 and first["args"]["outcome"] == "worker died: node_died"
    assert second["args"]["attempt_number"] == 1 and second["args"]["node"] != victim.name
    assert second["args"]["previous_outcome"] == "failed: node_died"
    died = instants(events, "node died")
    assert len(died) == 1 and died[0]["s"] == "p" and died[0]["ts"] == 4e6
    assert died[0]["pid"] == first["pid"]
    assert instants(events, "worker died (node_died)")[0]["tid"] == first["tid"]
    assert instants(events, "remove node:")


def test_actor_restart_shows_two_lives_and_its_state_changes(ray):
    @ray.remote(max_restarts=1)
    class Counter:
        def __init__(self):
            self.n = 0

        def incr(self):
            self.n += 1
            return self.n

    a = Counter.remote()
    assert ray.get(a.incr.remote()) == 1
    sim.kill_actor(a)
    assert ray.get(a.incr.remote()) == 1  # a fresh life: state was lost
    events = ray.timeline()
    check_valid(events)
    inits = slices(events, "Counter.__init__")
    assert [e["args"]["restart"] for e in inits] == [0, 1]
    assert inits[0]["tid"] != inits[1]["tid"]  # a new worker process
    states = [e["name"] for e in instants(events, "actor ") if e["pid"] != 1]
    assert states == ["actor ALIVE", "actor RESTARTING", "actor ALIVE"]
    threads = names(events, "thread_name")
    assert threads[(inits[0]["pid"], inits[0]["tid"])].startswith("actor Counter(")
    incr = slices(events, "Counter.incr")
    assert len(incr) == 2 and all(e["cat"] == "actor_task" for e in incr)
    assert {e["args"]["actor_id"] for e in incr + inits} == {a._actor_id}


def test_reconstruction_is_an_instant_and_the_rebuilding_attempt_says_so(three_nodes):
    c, nodes = three_nodes

    @miniray.remote
    def produce():
        return bytes(BIG)

    ref = produce.remote()
    miniray.get(ref)
    sim.lose_object(ref)
    assert len(miniray.get(ref)) == BIG
    events = miniray.timeline()
    first, again = slices(events, "produce")
    assert "reconstruction" not in first["args"] and again["args"]["reconstruction"] is True
    lineage = instants(events, "reconstruct produce")
    assert (
        len(lineage) == 1
        and names(events, "thread_name")[(1, lineage[0]["tid"])] == "lineage (reconstruction)"
    )


def test_placement_group_states_are_slices_on_the_gcs_track():
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=c.address)
    try:
        nodes = [c.add_node(num_cpus=1) for _ in range(2)]
        pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", name="PG_A")
        miniray.get(pg.ready())
        sim.sleep(1)
        c.remove_node(nodes[1])
        sim.sleep(2)
        events = miniray.timeline()
        check_valid(events)
        tid = next(t for (p, t), n in names(events, "thread_name").items() if n == "pg PG_A")
        states = [
            (e["name"], e["ts"] / 1e6, e["dur"] / 1e6)
            for e in slices(events)
            if e["tid"] == tid and e["pid"] == 1
        ]
        assert [s[0] for s in states] == ["PENDING", "CREATED", "RESCHEDULING"]
        created_at = 4.5e-6  # one scheduling attempt's cost after the request
        assert states[1][1] == pytest.approx(created_at)
        assert states[1][1] + states[1][2] == pytest.approx(created_at + 1)  # CREATED until the node went
        assert states[2][1] == pytest.approx(created_at + 1) and states[2][2] == pytest.approx(2.0)
        assert instants(events, "pg.bundles_lost")
    finally:
        miniray.shutdown()
        c.shutdown()


def test_a_zombie_attempt_runs_past_its_presumed_death_and_liveness_is_on_the_node_track():
    sim.set_seed(0)
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "_system_config": {"liveness": {"probe_interval_s": 5, "unhealthy_threshold": 3}},
        },
    )
    miniray.init(address=c.address)
    try:
        n1 = c.add_node(num_cpus=1)
        c.add_node(num_cpus=1)
        world = liveness.Services()

        @miniray.remote
        def work():
            time.sleep(20)
            world.db.upsert("rows", "row", sim.now())
            return 1

        ref = work.remote()
        sim.pause_node(n1, 30.0, at=2)
        miniray.get(ref)
        sim.sleep(10)
        events = miniray.timeline()
        check_valid(events)
        zombie, retry = slices(events, "work")
        assert zombie["args"]["zombie"] is True and zombie["args"]["outcome"] == "zombie returned"
        assert (zombie["ts"], zombie["ts"] + zombie["dur"]) == (0, 32e6)  # ran on until the node woke
        assert (
            retry["ts"] == 16e6 and retry["ts"] < zombie["ts"] + zombie["dur"]
        )  # overlap: two attempts live
        paused = [e for e in slices(events, "paused")]
        assert len(paused) == 1 and (paused[0]["ts"], paused[0]["dur"]) == (2e6, 30e6)
        node_pid = zombie["pid"]
        on_node = [e["name"] for e in instants(events, "liveness.") if e["pid"] == node_pid]
        assert on_node[:4] == [
            "liveness.probe_failed",
            "liveness.suspect",
            "liveness.probe_failed",
            "liveness.probe_failed",
        ]
        assert "liveness.dead" in on_node and "liveness.zombie" in on_node
        effects = [e for e in events if e.get("cat") == "effect"]
        assert {(e["tid"], e["args"]["attempt"]) for e in effects} == {
            (zombie["tid"], "work#1/1"),
            (retry["tid"], "work#1/2"),
        }  # each effect on its attempt's thread
    finally:
        miniray.shutdown()
        c.shutdown()


def test_same_seed_gives_the_same_trace_and_exporting_changes_nothing():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote(max_retries=2, retry_exceptions=True)
        def f(i):
            time.sleep(i)
            if i == 1 and sim.now() < 2:
                raise RuntimeError("once")
            return i

        miniray.get([f.remote(i) for i in range(4)])
        before = sim.log_text()
        trace = json.dumps(miniray.timeline())
        assert sim.log_text() == before
        return trace

    a, b = sim.run(scenario, seed=5), sim.run(scenario, seed=5)
    assert a.error is None and a.value == b.value and a.log_text == b.log_text


def test_timeline_after_sim_run_exports_the_last_run():
    def scenario():
        miniray.init(num_cpus=1)
        miniray.get(miniray.remote(lambda: 1).remote())

    sim.run(scenario)
    assert [e["name"] for e in slices(miniray.timeline())] == ["<lambda>"]


def test_fleet_model_exports_its_own_timeline(tmp_path):
    fleet = fleet_scenarios.scenario_a()
    events = fleet_timeline(fleet)
    check_valid(events)
    assert fleet.timeline(str(tmp_path / "fleet.json")) is None
    assert json.loads((tmp_path / "fleet.json").read_text()) == events
    threads = names(events, "thread_name")
    shard2 = next(k for k, v in threads.items() if v == "shard 2")
    states = [e for e in slices(events) if (e["pid"], e["tid"]) == shard2]
    # The shard's ledger states as contiguous slices, from the transitions the model records.
    expected = [st for _, st, _ in fleet.transitions(2)]
    assert [e["name"] for e in states] == expected
    for prev, nxt in zip(states, states[1:]):
        assert prev["ts"] + prev["dur"] == pytest.approx(nxt["ts"])
    refits = [e for e in slices(events) if e["name"].startswith("refit ")]
    assert len(refits) == len(fleet.log.of_kind("refit.done", "refit.failed"))
    trains = [e for e in slices(events) if e["name"].startswith("train step")]
    done = [e for e in trains if not e["args"].get("unfinished")]
    assert len(done) == len(fleet.log.of_kind("train.done")) > 2
    assert all(e["dur"] == fleet.cfg.train_s * 1e6 for e in done)
