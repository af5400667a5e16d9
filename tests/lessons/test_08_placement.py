"""Lesson 8's models and widget: packing on miniray, the admission window, failure attribution
that does not blame a node for its input."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from faultlines.stories import packing
from faultlines.stories.admission import flood, peak_in_flight
from faultlines.stories.attribution import BAD_INPUT_ROWS, COUNTERS, GOOD_ROWS, run_batch

REPO = Path(__file__).resolve().parents[2]


def test_fourteen_spread_tasks_leave_six_cpus_in_crumbs():
    spread = packing.layout(14, "default")
    assert spread.used == (3, 3, 3, 3, 2) and spread.utilisation == 0.7
    assert sum(spread.free) == 6 and spread.largest_free == 2 and not spread.big_started


def test_the_same_load_packed_leaves_a_node_free():
    packed = packing.layout(14, "pack")
    assert packed.used == (4, 4, 4, 2, 0) and packed.largest_free == 4 and packed.big_started


def test_sweep_refusal_points_and_big_task_size():
    spread, packed = packing.sweep("default"), packing.sweep("pack")
    assert packing.first_refusal(spread).small_tasks == 10  # 2 free on every node from 50 %
    assert packing.first_refusal(packed).small_tasks == 18
    # Whether the big task started agrees with the layout's largest free block, in every run.
    assert all(x.big_started == (x.largest_free >= x.big_cpus) for x in spread + packed)
    assert packing.first_refusal(packing.sweep("default", big_cpus=1)).small_tasks == 20


def test_packing_bad_input_is_one_message():
    with pytest.raises(ValueError, match="unknown strategy 'best-fit'"):
        packing.layout(3, "best-fit")
    with pytest.raises(ValueError, match="between 0 and 20"):
        packing.layout(21)
    with pytest.raises(ValueError, match="one node's CPUs"):
        packing.layout(3, big_cpus=5)


def test_bad_node_absorbs_retries_without_attribution_and_is_blacklisted_with_it():
    none = run_batch(GOOD_ROWS, "none", bad_node=1)
    assert sum(r.startswith("ok") for r in none.results) == 2
    assert none.attempts == 42 and none.report[0]["failures"] == 40  # 10 rows x 4 attempts on N1
    counted = run_batch(GOOD_ROWS, "all failures", bad_node=1)
    assert counted.results == tuple(GOOD_ROWS) and counted.blacklisted == ("node:1",)
    assert counted.attempts == 15 and counted.finished_at == 30
    assert run_batch(GOOD_ROWS, "retryable only", bad_node=1).blacklisted == ("node:1",)


def test_bad_input_blames_a_healthy_node_unless_terminal_errors_are_ignored():
    counted = run_batch(BAD_INPUT_ROWS, "all failures")
    assert counted.blacklisted == ("node:3",) and counted.finished_at == 15
    aware = run_batch(BAD_INPUT_ROWS, "retryable only")
    assert aware.blacklisted == () and aware.finished_at == 10
    assert all(row["failures"] == 0 for row in aware.report)
    assert aware.results.count("ValueError") == 4  # the rows still fail: they are not retried
    assert (
        COUNTERS["retryable only"] is __import__("miniray").liveness.attribution.Attribution
    )  # miniray's own
    with pytest.raises(ValueError, match="unknown counter"):
        run_batch(GOOD_ROWS, "some")


def test_widget_shows_the_story_layout_and_follows_the_big_task_size():
    pytest.importorskip("ipywidgets")
    from faultlines.widgets.packing_curve import packing_widget

    box = packing_widget()
    count, big, plot, numbers = box.children
    assert "spread (default policy): 70 % used, 6 CPUs free, largest block 2: the 3-CPU task is queued." in (
        numbers.value
    )
    assert "packed by hand: 70 % used, 6 CPUs free, largest block 4: the 3-CPU task starts." in numbers.value
    assert plot.value.startswith("<svg") and "big task needs 3" in plot.value
    big.value = 2
    assert "largest block 2: the 2-CPU task starts." in numbers.value
    count.value = 20
    assert "100 % used, 0 CPUs free" in numbers.value


def test_page_numbers_are_the_runs():
    n = runpy.run_path(str(REPO / "lessons/numbers/08_placement.py"), run_name="__numbers__")["numbers"]()
    assert (n["frag_util"], n["frag_free"], n["frag_largest"], n["frag_big_started"]) == (
        "70",
        "6",
        "2",
        "is queued",
    )
    assert (n["spread_refuses_at"], n["pack_refuses_at"]) == ("50", "90")
    assert n["bad_none_ok"] == "2" and n["bad_attr_ok"] == "12"
    assert n["input_all_blacklisted"] == "node:3" and n["input_aware_blacklisted"] == "nobody"
    assert (n["bad_failed"], n["bad_error"]) == ("10", "TransientError")
    assert (n["flood_peak"], n["window_peak"], n["flood_s"], n["window_s"]) == ("100", "8", "25", "25")
    # What real Ray 2.60 recorded agrees with miniray on every row the page compares.
    assert "| a new actor | `GetTimeoutError` | `GetTimeoutError` |" in n["head_table"]
    assert "| each failed row | ran four times, always on the bad node |" in n["ray_table"]


def test_admission_window_bounds_what_the_driver_holds():
    from miniray import sim

    for window in (4, 8, 50):
        run = sim.run(lambda w=window: flood(window=w), seed=0)
        assert peak_in_flight(run.records) == window and run.value == 25.0
