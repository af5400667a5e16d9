"""Seed 002's fleet controller: detection times, restarts that block nothing, refit costs,
the promotion bug and its fix, and the "what waits for what" table."""

import pytest

from faultlines.fleet import DEAD, HEALTHY, RESTARTING, STALE, SUSPECT, Fleet
from faultlines.fleet import scenarios as fs


@pytest.mark.parametrize("crash_at", [10.0, 10.5, 12.0, 14.9])
def test_crash_is_dead_within_one_probe_interval(crash_at):
    fleet = fs.scenario_a(crash_at=crash_at)
    dead = fleet.first_state(2, DEAD)
    assert 0 <= dead - crash_at <= 5  # a crash at a tick instant is seen by that tick
    assert fleet.first_state(2, SUSPECT) is None  # conclusive: no threshold


@pytest.mark.parametrize("hang_at", [10.0, 12.0, 14.9])
def test_hang_is_dead_after_three_probes(hang_at):
    fleet = fs.hang_between_refits(at=hang_at)
    suspect, dead = fleet.first_state(2, SUSPECT), fleet.first_state(2, DEAD)
    assert 0 <= suspect - hang_at <= 5
    assert 10 <= dead - hang_at <= 15 and dead - suspect == 10
    timeouts = [r for r in fleet.log.of_kind("probe") if r["shard"] == 2]
    assert [r["failures"] for r in timeouts] == [1, 2, 3]


def test_scenario_a_timeline():
    fleet = fs.scenario_a()
    assert [(t, s) for t, s, _ in fleet.transitions(2)] == [
        (0, HEALTHY),
        (15, DEAD),
        (15, RESTARTING),
        (375, STALE),
        (399, HEALTHY),
    ]
    # The restart blocked nothing: two refits completed (without shard 2) while it reloaded.
    groups = [(r.time, r["group"]) for r in fleet.log.of_kind("refit.start")]
    assert groups[:3] == [(121, [0, 1, 3]), (254, [0, 1, 3]), (387, [0, 1, 2, 3])]
    assert fleet.shards[2].weights == fleet.published  # it got current weights before serving
    assert fleet.shards[2].port != 8020  # the restarted engine binds a new port


def test_scenario_a_gym_router_learns_at_the_next_tick():
    fleet = fs.scenario_a(router="gym")
    healthy = fleet.first_state(2, HEALTHY, after=375)
    push = [r for r in fleet.log.of_kind("router.push") if r.time >= healthy][0]
    assert healthy == 399 and push.time == 400 and "2:8021" in push["urls"]
    assert not [o for t, i, o, _ in fleet.rollouts if o not in ("served",)]


def test_scenario_b_hang_during_refit_costs_the_full_timeout():
    fleet = fs.scenario_b("hang")
    assert fs.refit_cost(fleet) == 300 + 12
    failed = fleet.log.of_kind("refit.failed")[0]
    assert (failed.time, failed["reason"]) == (421, "abort")
    # The ledger knew at ~15 s, and the restart started then, long before the refit gave up.
    assert fleet.first_state(2, DEAD) == 135 and fleet.first_state(2, RESTARTING) == 135
    # Survivors hold partial weights: STALE (no traffic) through the retry, then promoted.
    for shard in (0, 1, 3):
        assert [(t, s) for t, s, _ in fleet.transitions(shard)] == [
            (0, HEALTHY),
            (421, STALE),
            (433, HEALTHY),
        ]
    gap = [t for t, i, o, _ in fleet.rollouts if o == "no_serving_shard"]
    assert gap and min(gap) >= 421 and max(gap) < 433
    assert not fleet.log.of_kind("refit.deadline_stood_down")


def test_scenario_b_crash_during_refit_costs_seconds():
    fleet = fs.scenario_b("crash")
    cost = fs.refit_cost(fleet)
    assert cost == 17 and cost - 12 <= 5
    stood_down = fleet.log.of_kind("refit.deadline_stood_down")
    assert len(stood_down) == 1 and stood_down[0].time == 125
    assert fleet.log.of_kind("refit.failed")[0]["reason"] == "nccl_error"
    assert not fleet.log.of_kind("run.failed")


def test_scenario_c_bug_promotes_a_shard_that_got_no_weights():
    fleet = fs.scenario_c(promote="all_stale")
    assert fleet.first_state(2, STALE) == 390  # mark_loaded lands inside the 387-399 s refit
    bad = fleet.log.of_kind("refit.promoted_without_weights")
    assert [(r.time, r["shard"], r["holds"], r["reported"]) for r in bad] == [(399, 2, 0, 3)]
    assert fleet.first_state(2, HEALTHY, after=390) == 399
    served = [(t, w) for t, i, o, w in fleet.rollouts if i == 2 and o == "served_stale_weights"]
    # It serves checkpoint weights for one step, until the 520-532 s refit writes to it.
    assert served and all(w == 0 for _, w in served) and 399 <= served[0][0] and served[-1][0] < 532
    # The metric is written by the same call: it reports version 3 for a shard holding 0.
    assert fleet.reported[2] >= 3


def test_scenario_c_fix_keeps_it_stale_until_a_refit_writes_to_it():
    fleet = fs.scenario_c(promote="refitted")
    assert not fleet.log.of_kind("refit.promoted_without_weights")
    assert [(r.time, r["shard"]) for r in fleet.log.of_kind("refit.kept_stale")] == [(399, 2)]
    assert fleet.first_state(2, HEALTHY, after=390) == 532
    assert not [1 for t, i, o, w in fleet.rollouts if o == "served_stale_weights" and i == 2]


def test_a_fast_reload_during_a_hung_refit_hits_the_same_bug():
    # With a reload shorter than the refit deadline, B's restart finishes mid-refit: that is C.
    bug = fs.scenario_b("hang", reload_s=200)
    assert [r["shard"] for r in bug.log.of_kind("refit.promoted_without_weights")] == [2]
    fixed = fs.scenario_b("hang", reload_s=200, promote="refitted")
    assert not fixed.log.of_kind("refit.promoted_without_weights")


def test_two_suspects_and_nothing_absent_stops_the_run():
    fleet = Fleet(reload_s=10_000).hang(1, 124).hang(2, 124)
    fleet.cfg.unhealthy_threshold = 100  # neither is ever condemned by the probes
    fleet.run(600)
    assert [r["why"][:28] for r in fleet.log.of_kind("run.failed")] == ["refit failed with no absent "]


def test_what_waits_for_what_table():
    rows = {r["step"]: r for r in fs.waits_table()}
    assert rows["Notice a crash"]["measured"] <= 5
    assert 10 < rows["Notice a hang"]["measured"] <= 15
    assert rows["Start the restart"]["measured"] == 0
    assert (
        rows["Reload the model"]["measured"] == 360
        and "2 refits completed" in rows["Reload the model"]["detail"]
    )
    assert rows["Transfer the weights"]["measured"] == 12
    assert rows["Rejoin the collective"]["measured"] <= 121 + 12
    assert rows["Take traffic again - native calls"]["measured"] == 0
    assert 0 < rows["Take traffic again - via the Gym router"]["measured"] <= 5
    text = fs.table_text(fs.waits_table())
    assert "Notice a crash" in text and len(text.splitlines()) == 10


def test_fleet_runs_are_deterministic():
    a, b = fs.scenario_b("hang"), fs.scenario_b("hang")
    assert a.log.text() == b.log.text() and a.rollouts == b.rollouts


def test_config_errors_name_the_fix():
    with pytest.raises(ValueError, match="'refitted' \\(the fix\\)"):
        Fleet(promote="some")


def test_between_the_crash_and_the_probe_the_ledger_still_routes_to_it():
    fleet = fs.scenario_a(crash_at=10.5)
    refused = [(t, i) for t, i, o, _ in fleet.rollouts if o == "refused"]
    assert refused == [(11, 2)]  # one request lost in the window before the 15 s probe
    served = {i for t, i, o, _ in fleet.rollouts if 15 <= t < 399 and o == "served"}
    assert served == {0, 1, 3}  # generation never stops: it runs on the survivors


def test_a_suspect_shard_still_serves_and_times_out():
    fleet = fs.scenario_b("hang")
    timeouts = [t for t, i, o, _ in fleet.rollouts if o == "timeout"]
    assert timeouts and all(i == 2 for _, i, o, _ in fleet.rollouts if o == "timeout")
    assert 124 <= min(timeouts) and max(timeouts) < 135  # until the verdict at 135 s


def test_weight_version_metric_follows_every_refit_a_healthy_shard_took():
    # Shards that stay HEALTHY through a refit are never promoted; the metric must still move.
    fleet = fs.scenario_a()
    done = fleet.log.of_kind("refit.done")
    assert done, "scenario A runs refits"
    last = done[-1]
    for shard in last["written"]:
        assert fleet.shards[shard].weights == last["version"]
        assert fleet.reported[shard] == last["version"]
