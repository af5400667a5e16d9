"""Lesson 10's model, chart and widget: the numbers the page quotes, from runs of the fleet model."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from faultlines.fleet import Fleet
from faultlines.models import fleet_health as fh
from faultlines.widgets import fleet_health as fw
from faultlines.widgets import statechart

NS = "{http://www.w3.org/2000/svg}"


def test_crash_between_refits_is_dead_at_the_next_tick_and_back_after_the_next_refit():
    run = fh.observe(Fleet, fault="crash", fault_at=12.0)
    assert (run.dead_at, run.notice_s, run.suspect_at) == (15.0, 3.0, None)
    assert (run.stale_at, run.healthy_at, run.out_of_service_s) == (375.0, 399.0, 387.0)
    assert [s.label for s in run.segments[2]] == ["HEALTHY", "DEAD", "RESTARTING", "STALE", "HEALTHY"]
    assert [s.label for s in run.weights] == ["CURRENT", "NONE", "CHECKPOINT", "CURRENT"]
    assert run.promoted_without_weights == [] and run.longest_refit_s == 12.0


def test_hang_needs_threshold_timeouts_and_times_out_rollouts_meanwhile():
    run = fh.observe(Fleet, fault="hang", fault_at=12.0)
    assert (run.suspect_at, run.dead_at) == (15.0, 25.0)
    assert run.rollouts.get("timeout", 0) == 3
    assert fh.observe(Fleet, fault="hang", fault_at=12.0, probe_interval_s=1.0).notice_s == 2.0


@pytest.mark.parametrize("fault_at", [10.0, 11.5, 14.5])
def test_notice_windows_follow_interval_and_threshold(fault_at):
    crash = fh.observe(Fleet, fault="crash", fault_at=fault_at).notice_s
    hang = fh.observe(Fleet, fault="hang", fault_at=fault_at).notice_s
    assert 0 <= crash < 5 and 10 <= hang < 15
    assert hang - crash == 10  # two more probe intervals: threshold 3 at 5 s


def test_hang_during_refit_holds_the_trainer_for_the_deadline_and_a_crash_does_not():
    hang = fh.observe(Fleet, fault="hang", fault_at=124.0)
    crash = fh.observe(Fleet, fault="crash", fault_at=124.0)
    assert hang.longest_refit_s == 312.0  # 300 s deadline, then a 12 s retry
    assert crash.longest_refit_s == 17.0  # 2 s NCCL error after a 3 s head start, then a 12 s retry
    assert hang.dead_at == 135.0  # the ledger knew long before the collective gave up
    assert fh.observe(Fleet, fault="hang", fault_at=124.0, refit_timeout_s=60.0).longest_refit_s == 72.0


def test_promotion_bug_serves_the_checkpoint_and_the_fix_keeps_it_stale():
    bug = fh.observe(Fleet, fault="crash", fault_at=28.0, promote="all_stale")
    fix = fh.observe(Fleet, fault="crash", fault_at=28.0, promote="refitted")
    assert bug.promoted_without_weights == [(399.0, 0, 3)]
    assert bug.stale_weight_rollouts == 34 and fix.stale_weight_rollouts == 0
    assert (bug.healthy_at, fix.healthy_at) == (399.0, 532.0)
    # The weights row shows the bug: CHECKPOINT held while the ledger says HEALTHY.
    assert any(s.label == "CHECKPOINT" and s.start <= 399.0 < s.end for s in bug.weights)


def test_a_threshold_of_one_turns_a_blip_into_a_restart():
    tolerant = fh.observe(Fleet, fault="blip", fault_at=12.0, unhealthy_threshold=3)
    eager = fh.observe(Fleet, fault="blip", fault_at=12.0, unhealthy_threshold=1)
    assert (tolerant.dead_at, tolerant.out_of_service_s) == (None, 8.0)
    assert (eager.dead_at, eager.out_of_service_s) == (15.0, 387.0)


def test_bad_knobs_get_one_clear_message():
    with pytest.raises(ValueError, match="fault must be one of crash, hang, blip"):
        fh.observe(Fleet, fault="reboot")
    with pytest.raises(ValueError, match="unhealthy_threshold >= 1"):
        fh.observe(Fleet, unhealthy_threshold=0)


def test_strip_draws_a_band_per_state_and_describes_every_row_in_its_title():
    run = fh.observe(Fleet, fault="hang", fault_at=124.0)
    svg = statechart.render(fw.strip_for(run))
    root = ET.fromstring(svg)
    title = root.find(f"{NS}title").text
    assert "shard 2: HEALTHY 0-125, SUSPECT 125-135, DEAD 135-135, RESTARTING 135-495" in title
    assert "refits: ABORT 121-421, RETRY DONE 421-433" in title
    bands = sum(len(row.bands) for row in fw.strip_for(run).rows)
    legend = len({b.state for row in fw.strip_for(run).rows for b in row.bands})
    assert len(root.findall(f"{NS}rect")) == bands + legend
    assert svg == statechart.render(fw.strip_for(fh.observe(Fleet, fault="hang", fault_at=124.0)))


def test_widget_reruns_the_fleet_when_a_knob_moves():
    pytest.importorskip("ipywidgets")
    widget = fw.FleetHealthWidget(Fleet)
    assert widget.fault_at.value == 28  # it opens on seed 002's crash, where promotion matters
    assert "holds v0, metric says v3" in widget.table.value
    widget.fault_at.value = 12
    assert widget.run.dead_at == 15.0 and "crash of shard 2" in widget.chart.value
    widget.fault.value = "blip"
    assert widget.run.dead_at is None
    widget.threshold.value = 1
    assert widget.run.dead_at == 15.0 and "387 s after the fault" in widget.table.value
    widget.fault_at.value = 28
    widget.fault.value = "crash"
    assert "holds v0, metric says v3" in widget.table.value
    widget.promote.value = "refitted"
    assert "holds v0" not in widget.table.value


def test_page_numbers_come_from_these_runs():
    import runpy
    from pathlib import Path

    module = runpy.run_path(str(Path(__file__).parents[2] / "lessons/numbers/10_fleet_health.py"))
    values = module["numbers"]()
    assert values["crash_dead"] == "15" and values["hang_dead"] == "25"
    assert values["hang_refit_wait"] == "312" and values["crash_refit_wait"] == "17"
    assert values["bug_old_rollouts"] == "34" and values["blip1_out"] == "387"
    assert values["story_log"].splitlines()[-1].endswith("why=promoted by refit")
