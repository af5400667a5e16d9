"""Lesson 7's models and widget: detection times and false deaths checked against miniray's own
failure detector, and the zombie story under each defence."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from faultlines.stories.detection import detection, simulate_pause
from faultlines.stories.zombie import run_story

REPO = Path(__file__).resolve().parents[2]


def test_detection_times_for_five_second_probes_and_three_misses():
    d = detection(5, 3)
    assert (d.crash_worst_s, d.crash_mean_s) == (5, 2.5)
    assert (d.hang_best_s, d.hang_worst_s, d.hang_mean_s) == (10, 15, 12.5)
    assert [d.presumed_dead_probability(x) for x in (0, 9.9, 10, 12, 14, 15, 60)] == pytest.approx(
        [0, 0, 0, 0.4, 0.8, 1, 1]
    )


@pytest.mark.parametrize("pause_s", [7.0, 10.5, 12.0, 13.5, 16.0])
def test_false_death_probability_matches_the_simulated_detector(pause_s):
    """Pauses starting at ten evenly spread moments between two probes: the share the real
    detector declares dead equals the formula's probability, to one phase in ten."""
    d = detection(5, 3)
    starts = [(i + 0.5) / 10 * 5 for i in range(10)]
    outcomes = [simulate_pause(pause_s, s) for s in starts]
    share = sum(o.presumed_dead for o in outcomes) / len(outcomes)
    assert share == pytest.approx(d.presumed_dead_probability(pause_s), abs=0.1)
    for s, o in zip(starts, outcomes):
        # Exactly: dead iff the pause still covers the third probe after it starts (t = 15).
        assert o.presumed_dead == (s + pause_s > 15)
        assert o.attempts == (2 if o.presumed_dead else 1)
        if o.presumed_dead:
            assert o.dead_at == 15 and o.probes_failed == 3 and o.zombie_finished_at is not None


def test_hang_detection_window_matches_the_simulated_detector():
    d = detection(2, 4)
    for start in (0.1, 1.0, 1.9):
        o = simulate_pause(1000.0, start, interval_s=2, threshold=4)
        assert d.hang_best_s < o.dead_at - start <= d.hang_worst_s


def test_bad_settings_are_one_clear_message():
    with pytest.raises(ValueError, match="probe interval must be > 0"):
        detection(0, 3)
    with pytest.raises(ValueError, match="whole number >= 1"):
        detection(5, 0)
    with pytest.raises(ValueError, match="pause lasts >= 0"):
        detection(5, 3).presumed_dead_probability(-1)
    with pytest.raises(ValueError, match="unknown defence 'retry'"):
        run_story("retry")


def test_zombie_story_without_a_defence_keeps_the_stale_result():
    r = run_story("none")
    assert r.result == "written"
    assert r.final_value == "result from write_shard#1/1"  # the zombie wrote last, at t = 32
    assert r.notifications == 2 and r.zombie_outcome == "returned"
    assert (
        "15.0  liveness.dead" in r.log and "16.0  task.start               attempt=write_shard#1/2" in r.log
    )
    assert "32.0  node.resumed" in r.log


def test_exclusive_commit_keeps_one_output_but_not_one_email():
    r = run_story("exclusive_commit")
    assert r.result == "committed" and r.final_value == "result from write_shard#1/2"
    assert r.notifications == 2
    assert "blob.rename tmp/write_shard#1/1->out/shard-7 -> DestinationExistsError" in r.effects


def test_fencing_refuses_the_zombies_older_token():
    r = run_story("fencing")
    assert r.final_value == "result from write_shard#1/2" and r.zombie_outcome == "StaleTokenError"
    assert "32.000 write_shard#1/1 db.upsert results/shard-7 -> StaleTokenError token=shard-7:1" in r.effects


def test_a_short_pause_makes_no_zombie():
    r = run_story("none", pause_s=8.0)
    assert r.notifications == 1 and r.zombie_outcome == "" and r.final_value == "result from write_shard#1/1"


def test_widget_text_follows_the_sliders():
    pytest.importorskip("ipywidgets")
    from faultlines.widgets.detector_tradeoff import detector_widget

    box = detector_widget()
    interval, misses, pause, plot, text = box.children
    assert "A hang is declared 10 to 15 s after it starts" in text.value
    assert "Your pause of 12 s is declared dead 40 %" in text.value
    assert plot.value.startswith("<svg") and "your pause 12 s" in plot.value
    misses.value = 6
    assert "A hang is declared 25 to 30 s after it starts" in text.value
    assert "Your pause of 12 s is never declared dead" in text.value
    interval.value = 2.0
    pause.value = 11.0  # 6 misses at 2 s: dead from 10 s; 11 s covers 6 probes half the time
    assert "declared dead 50 %" in text.value


def test_page_numbers_are_the_runs():
    n = runpy.run_path(str(REPO / "lessons/numbers/07_liveness.py"), run_name="__numbers__")["numbers"]()
    assert (n["crash_dead"], n["crash_rerun"]) == ("10", "11")  # the re-run waits for the verdict
    assert (n["hang_suspect"], n["hang_dead"], n["hang_rerun"], n["hang_finish"]) == ("5", "15", "16", "36")
    assert (n["pause_suspect"], n["pause_alive"], n["pause_attempts"]) == ("5", "10", "1")
    assert n["story_emails"] == "2" and n["story_final"].endswith("#1/1")
    assert n["fence_zombie"] == "StaleTokenError" and n["pause_12_pct"] == "40"
    assert n["ray_threshold"] == "5" and n["ray_period_ms"] == "3000"
