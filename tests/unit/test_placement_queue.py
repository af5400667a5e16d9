"""The pending queue, its policies and the seed's case study (Ray #65147): activity is not progress.

Scenario (seed 000): four 1-CPU nodes labelled L1/L2/L1/L2; PG_A on N1+N2, PG_B on N3+N4, each
needing one L1 and one L2 bundle. Remove N2: PG_A recovers forever. Remove N3: PG_B too, and
now each holds what the other needs. PG_C needs only PG_C_ONLY, on a fresh node.
"""

import time

import pytest

import miniray
from miniray import placement, sim
from miniray.cluster_utils import Cluster
from miniray.exceptions import Stalled
from miniray.placement import policies
from miniray.placement.queue import Backoff, PendingQueue
from miniray.util.placement_group import placement_group, placement_group_table, remove_placement_group

SEL = [{"tier": "L1"}, {"tier": "L2"}]
RATE = 1 / 4.5e-6  # attempts per virtual second at the default attempt cost: 222,222


class Scenario:
    def __init__(self, policy="ray-2.60", **config):
        sim.set_seed(0)
        config["placement_group_queue_policy"] = policy
        self.c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
        miniray.init(address=self.c.address)
        self.n = [self.c.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2", "L1", "L2")]
        self.A = placement_group([{"CPU": 1}, {"CPU": 1}], name="PG_A", bundle_label_selector=SEL)
        self.B = placement_group([{"CPU": 1}, {"CPU": 1}], name="PG_B", bundle_label_selector=SEL)
        miniray.get([self.A.ready(), self.B.ready()])
        self.C = None

    def stats(self, pg):
        row = placement_group_table(pg)
        return dict(row["stats"], state=row["state"])

    def attempts(self, pg):
        return self.stats(pg)["scheduling_attempt"]

    def lose(self, i):
        self.c.remove_node(self.n[i])

    def add_pg_c(self):
        self.c.add_node(num_cpus=0, resources={"PG_C_ONLY": 1})
        self.C = placement_group([{"PG_C_ONLY": 1}], name="PG_C")
        return self.C

    def close(self):
        miniray.shutdown()
        self.c.shutdown()


@pytest.fixture
def scenario():
    made = []

    def make(*args, **kwargs):
        made.append(Scenario(*args, **kwargs))
        return made[-1]

    yield make
    for s in made:
        s.close()


# -- the queue on its own -----------------------------------------------------------------------
def test_backoff_is_100ms_times_1_5_up_to_1s():
    b = Backoff()
    assert [round(b.next(), 6) for _ in range(8)] == [0.1, 0.15, 0.225, 0.3375, 0.50625, 0.759375, 1.0, 1.0]


def test_rank_zero_jumps_the_line_and_equal_ranks_take_turns():
    class G:
        def __init__(self, name):
            self.name = name
            self.highest_retry_delay_ms = None

    q = PendingQueue()
    a, b, c = G("a"), G("b"), G("c")
    q.add(c, now=5.0)
    q.add(a, now=6.0, rank=0)
    q.add(b, now=6.0, rank=0)
    assert [g.name for g in q.groups()] == ["a", "b", "c"]
    q.add(q.pop().group, now=6.0, rank=0)  # a failed: back behind b, still ahead of c
    assert [g.name for g in q.groups()] == ["b", "a", "c"]
    delay = q.add(q.pop().group, now=7.0, backoff=Backoff())
    assert delay == 0.1 and q.entries[-1].rank == pytest.approx(7.1) and b.highest_retry_delay_ms == 100.0


def test_policy_is_chosen_by_name_or_callable_and_bad_names_fail_at_init():
    assert policies.resolve("ray-2.60") is policies.ray_2_60
    assert policies.resolve(None) is policies.ray_2_60
    mine = lambda pg, now: "backoff"  # noqa: E731
    assert policies.resolve(mine) is mine
    with pytest.raises(ValueError, match="'backoff'"):
        miniray.init(_system_config={"placement_group_queue_policy": "fifo"})
    miniray.shutdown()
    miniray.init(num_cpus=1, _system_config={"placement_group_queue_policy": "backoff"})
    try:
        assert miniray.context.current().placement.policy is policies.backoff
    finally:
        miniray.shutdown()


# -- the seed's case study under Ray 2.60 ---------------------------------------------------------
def test_ray_2_60_one_lost_node_makes_a_hot_loop_at_220k_attempts_per_second(scenario):
    s = scenario("ray-2.60")
    s.lose(1)
    sim.sleep(1.0)
    first = s.attempts(s.A)
    sim.sleep(3.0)
    st = s.stats(s.A)
    assert st["state"] == "RESCHEDULING" and st["scheduling_state"] == "FAILED_TO_COMMIT_RESOURCES"
    assert st["highest_retry_delay_ms"] == 0
    assert abs((st["scheduling_attempt"] - first) / 3.0 - RATE) < 1
    assert 215_000 < RATE < 225_000
    assert s.stats(s.B)["state"] == "CREATED"


def test_ray_2_60_two_losses_make_both_groups_spin_taking_turns(scenario):
    s = scenario("ray-2.60")
    s.lose(1)
    s.lose(2)
    sim.sleep(1.0)
    a0, b0 = s.attempts(s.A), s.attempts(s.B)
    sim.sleep(3.0)
    da, db = s.attempts(s.A) - a0, s.attempts(s.B) - b0
    assert abs(da - db) <= 1 and abs((da + db) / 3.0 - RATE) < 1  # ~111k/s each, as in the seed
    assert s.stats(s.A)["state"] == s.stats(s.B)["state"] == "RESCHEDULING"


def test_ray_2_60_starves_pg_c_for_35s_with_just_one_recovering_group(scenario):
    s = scenario("ray-2.60")
    s.lose(1)  # only PG_A recovers: no cycle
    C = s.add_pg_c()
    assert C.wait(timeout_seconds=35) is False
    st = s.stats(C)
    assert st["state"] == "PENDING" and st["scheduling_attempt"] == 0
    d = placement.diagnose()
    assert d.cycles == [] and d.starved == ["PG_C"] and d.spinning == ["PG_A"]
    assert d.attempts["PG_A"] > 35 * 220_000


def test_ray_2_60_full_case_cycle_starvation_then_removing_pg_b_unblocks_in_under_60ms(scenario):
    s = scenario("ray-2.60")
    s.lose(1)
    s.lose(2)
    C = s.add_pg_c()
    assert C.wait(timeout_seconds=35) is False
    assert s.attempts(C) == 0
    d = placement.diagnose()
    assert d.cycle_strings() == ["PG_A -> PG_B -> PG_A"]
    assert d.starved == ["PG_C"] and d.spinning == ["PG_A", "PG_B"]
    t0 = sim.now()
    remove_placement_group(s.B)
    miniray.get([s.A.ready(), C.ready()])
    assert sim.now() - t0 < 0.06
    assert s.stats(s.A)["state"] == s.stats(C)["state"] == "CREATED"
    assert s.stats(C)["scheduling_attempt"] == 1


def test_waiting_forever_on_a_hot_loop_stops_with_the_diagnosis(scenario):
    s = scenario("ray-2.60")
    s.lose(1)
    s.lose(2)
    C = s.add_pg_c()
    with pytest.raises(Stalled) as info:
        miniray.get(C.ready())
    text = str(info.value)
    assert "PG_A -> PG_B -> PG_A" in text and "PG_C is due but has had 0 scheduling attempts" in text


@pytest.mark.parametrize("steps", [(0.0301, 0.0203, 0.0004), (4.5e-6, 1e-5, 9e-6), (0.00123, 3.3e-5, 0.007)])
def test_hot_loop_arithmetic_matches_attempt_by_attempt_simulation(scenario, steps):
    """The batched hot loop must count exactly what one event per attempt counts."""

    def unbatched(pg, now):
        return policies.ray_2_60(pg, now)  # same answers, but not marked stationary

    results = []
    for policy in ("ray-2.60", unbatched):
        s = scenario(policy)
        s.lose(1)
        sim.sleep(steps[0])
        s.lose(2)
        C = s.add_pg_c()
        sim.sleep(steps[1])
        first = [s.attempts(g) for g in (s.A, s.B, C)]  # a read settles the loop mid-way
        sim.sleep(steps[2])
        results.append([first] + [s.stats(g) for g in (s.A, s.B, C)] + [sim.now()])
        s.close()
    assert results[0] == results[1]
    assert results[0][1]["scheduling_attempt"] > 2


def test_a_learner_policy_with_bounded_priority_ends_the_starvation(scenario):
    """Strict priority for 10 ms of recovery, then backoff: one of the blog's other contracts."""

    def bounded(pg, now):
        if pg.state == "RESCHEDULING" and now - pg.recovering_since < 0.010:
            return "front"
        return "backoff"

    s = scenario(bounded)
    s.lose(1)
    C = s.add_pg_c()
    assert C.wait(timeout_seconds=1) is True
    a = s.stats(s.A)
    assert 2_000 < a["scheduling_attempt"] < 2_300  # ~10 ms at 222k/s, then it backed off
    assert a["highest_retry_delay_ms"] == 100.0


# -- the same case under the backoff policy (Ray PR #65970) ---------------------------------------
def test_backoff_gives_pg_c_its_turn_and_failed_recovery_backs_off(scenario):
    s = scenario("backoff")
    s.lose(1)
    s.lose(2)
    sim.sleep(3.0)
    assert s.attempts(s.A) < 10 and s.stats(s.A)["highest_retry_delay_ms"] >= 100
    t0 = sim.now()
    C = s.add_pg_c()
    assert C.wait(timeout_seconds=35) is True
    assert sim.now() - t0 < 0.001 and s.attempts(C) == 1
    d = placement.diagnose()
    assert d.cycle_strings() == ["PG_A -> PG_B -> PG_A"]  # backoff fixes starvation, not the cycle
    assert d.starved == [] and d.spinning == []
    sim.sleep(35)
    assert s.stats(s.A)["highest_retry_delay_ms"] == 1000.0
    assert s.stats(s.A)["state"] == "RESCHEDULING"


def test_backoff_keeps_fresh_recovery_first_then_delays_grow(scenario):
    s = scenario("backoff")
    before = s.attempts(s.A)
    s.lose(1)
    sim.sleep(0.001)
    st = s.stats(s.A)
    assert st["scheduling_attempt"] == before + 1  # tried at once, at rank 0
    assert st["highest_retry_delay_ms"] == 100.0
    delays = []
    for _ in range(6):
        sim.sleep(1.0)
        delays.append(s.stats(s.A)["highest_retry_delay_ms"])
    assert delays == sorted(delays) and delays[-1] == 1000.0


def test_backoff_trades_recovery_latency_for_liveness(scenario):
    """Capacity returns while PG_A cools down: it waits for its retry time (the blog's trade-off)."""
    s = scenario("backoff")
    s.lose(1)
    s.lose(2)
    sim.sleep(10.0)
    t0 = sim.now()
    remove_placement_group(s.B)
    miniray.get(s.A.ready())
    assert 0.06 < sim.now() - t0 <= 2.0


# -- the rescheduler hook ---------------------------------------------------------------------------
def test_rescheduler_hook_may_release_a_victims_survivors_to_break_the_cycle(scenario):
    seen = []

    def release_pg_b(ctx):
        cycles = ctx.diagnosis().cycle_strings()
        seen.append(cycles)
        if cycles:
            ctx.release_surviving("PG_B")

    s = scenario("ray-2.60", placement_group_rescheduler=release_pg_b)
    s.lose(1)
    s.lose(2)
    assert s.A.wait(timeout_seconds=1) is True
    assert ["PG_A -> PG_B -> PG_A"] in seen
    assert s.stats(s.B)["state"] == "RESCHEDULING"
    assert placement_group_table(s.B)["bundles_to_node_id"] == {}


def test_no_rescheduler_ships_enabled(scenario):
    s = scenario()
    assert s.c.rt.placement.rescheduler is None


def test_35_virtual_seconds_of_hot_loop_simulate_in_well_under_a_second(scenario):
    start = time.perf_counter()
    s = scenario("ray-2.60")
    s.lose(1)
    s.lose(2)
    C = s.add_pg_c()
    C.wait(timeout_seconds=35)
    assert time.perf_counter() - start < 1.0
    assert s.c.rt._kernel.steps < 200


def test_same_seed_same_log(scenario):
    logs = []
    for _ in range(2):
        s = scenario("backoff")
        s.lose(1)
        s.lose(2)
        s.add_pg_c().wait(5)
        logs.append((sim.log_text(), placement_group_table()))
        s.close()
    assert logs[0] == logs[1]


def test_a_hot_loop_sees_capacity_freed_by_a_finishing_task_within_one_attempt(scenario):
    s = scenario("ray-2.60")
    n5 = s.c.add_node(num_cpus=1, labels={"tier": "L2"})

    @miniray.remote(num_cpus=1, label_selector={"tier": "L2"})
    def busy():
        time.sleep(5.0)
        return 1

    ref = busy.remote()
    sim.sleep(0.5)
    assert s.c.rt.tasks.all[-1].node is n5
    s.lose(1)  # PG_A's L2 bundle can only go to n5, busy for 4.5 more seconds
    miniray.get(s.A.ready())
    finished = [e for e in sim.event_log() if e.kind == "task.finish"][-1].time
    assert 0 <= sim.now() - finished <= 2 * 4.5e-6
    assert placement_group_table(s.A)["bundles_to_node_id"][1] == n5.node_id
    assert s.attempts(s.A) > 4.4 * 220_000
    assert miniray.get(ref) == 1


def test_waiting_forever_under_backoff_stops_with_the_cycle_not_the_event_budget(scenario):
    s = scenario("backoff")
    s.lose(1)
    s.lose(2)
    start = time.perf_counter()
    with pytest.raises(Stalled, match="PG_A -> PG_B -> PG_A"):
        miniray.get(s.A.ready())
    assert time.perf_counter() - start < 1.0
    sim.sleep(10.0)  # the skipped Ticks still happen: counts keep moving after the stall
    assert 8 <= s.attempts(s.A) <= 20


@pytest.mark.parametrize("steps", [(0.3, 2.0, 10.0, 3.7), (1.0, 1.0, 0.05, 20.0), (1e-5, 4.0, 2.0, 0.6)])
def test_skipped_ticks_count_exactly_what_real_ticks_count(scenario, steps):
    """While nothing else is scheduled the manager skips its Ticks; a read replays them."""
    results = []
    for keep_awake in (False, True):
        s = scenario("backoff")
        if keep_awake:  # a far-away event: the manager never thinks it is alone, ticks for real
            s.c.rt._kernel.at(1e7, lambda: None, label="awake")
        s.lose(1)
        sim.sleep(steps[0])
        s.lose(2)
        sim.sleep(steps[1])
        mid = [s.stats(g) for g in (s.A, s.B)]
        sim.sleep(steps[2])
        C = s.add_pg_c()
        sim.sleep(steps[3])
        results.append([mid] + [s.stats(g) for g in (s.A, s.B, C)])
        s.close()
    assert results[0] == results[1]


def test_attempt_cost_sets_the_hot_loop_rate(scenario):
    s = scenario("ray-2.60", placement_group_attempt_cost_s=1e-3)
    s.lose(1)
    sim.sleep(0.5)
    a0 = s.attempts(s.A)
    sim.sleep(2.0)
    assert s.attempts(s.A) - a0 == 2000
    with pytest.raises(ValueError, match="positive"):
        Scenario("ray-2.60", placement_group_attempt_cost_s=0)


def test_a_rescheduler_that_declines_is_asked_once_per_state_and_the_loop_still_batches(scenario):
    calls = []
    s = scenario("ray-2.60", placement_group_rescheduler=lambda ctx: calls.append((ctx.group.label, ctx.now)))
    s.lose(1)
    s.lose(2)
    C = s.add_pg_c()
    assert C.wait(timeout_seconds=35) is False
    assert sorted(label for label, _ in calls) == ["PG_A", "PG_B"]
    assert s.c.rt._kernel.steps < 200 and s.attempts(s.A) > 35 * 100_000
