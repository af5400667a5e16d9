"""Lesson 6's cost model, its miniray simulation and its widget, checked with real numbers."""

from __future__ import annotations

import math
import re
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from faultlines.models import checkpoint_interval as model
from faultlines.stories import checkpoint_sim as sim
from faultlines.widgets import checkpoint_interval as widget
from faultlines.widgets import svgplot

REPO = Path(__file__).resolve().parents[2]
C = 30 / 3600  # seed 001: a 30 s checkpoint, in hours


def test_young_optimum_for_seed_001():
    assert model.young_interval(0.02, C) == pytest.approx(0.912871, abs=1e-6)  # about 55 min
    assert model.young_interval(0.20, C) == pytest.approx(0.288675, abs=1e-6)  # about 17 min


def test_first_order_reproduces_seed_001_worked_example():
    hourly = model.first_order(10, 1.0, 0.02, C)
    assert (hourly.checkpoints, hourly.io_h, hourly.lost_h) == pytest.approx((10, 300 / 3600, 0.10))
    assert hourly.total_h == pytest.approx(0.1833, abs=1e-4)
    six_minutes = model.first_order(10, 0.1, 0.02, C)
    assert (six_minutes.io_h, six_minutes.lost_h) == pytest.approx((3000 / 3600, 0.01))
    assert six_minutes.total_h == pytest.approx(0.8433, abs=1e-4)


def test_exact_agrees_with_first_order_when_failures_are_rare_and_exceeds_it_otherwise():
    rare = model.exact(10, 1.0, 1e-6, C)
    assert rare.total_h == pytest.approx(model.first_order(10, 1.0, 1e-6, C).total_h, rel=1e-4)
    assert model.exact(10, 1.0, 0.2, C).total_h == pytest.approx(1.17201, abs=1e-5)
    assert model.exact(10, 1.0, 0.2, C).total_h > model.first_order(10, 1.0, 0.2, C).total_h
    assert model.exact(10, 1.0, 0.0, C).total_h == pytest.approx(10 * C)  # no failures: I/O only


def test_exact_optimum_solves_the_stationarity_condition_and_daly_lands_on_it():
    for rate in (0.02, 0.2, 1.0):
        tau = model.exact_interval(rate, C)
        # d/dtau [(e^(rate (tau + C)) - 1) / tau] = 0  <=>  e^(rate (tau + C)) (rate tau - 1) + 1 = 0
        assert math.exp(rate * (tau + C)) * (rate * tau - 1) + 1 == pytest.approx(0, abs=1e-9)
        assert tau < model.young_interval(rate, C)
        assert model.daly_interval(rate, C) == pytest.approx(tau, rel=1e-4)
    assert model.exact_interval(0.02, C) == pytest.approx(0.907324, abs=1e-6)


def test_restart_delay_does_not_move_the_exact_optimum():
    assert model.exact_interval(0.2, C, restart_h=0.5) == pytest.approx(
        model.exact_interval(0.2, C), rel=1e-7
    )
    assert model.exact(10, 1, 0.2, C, restart_h=0.5).total_h > model.exact(10, 1, 0.2, C).total_h


def test_segments_and_bad_input():
    assert model.segments(10, 3) == [3, 3, 3, pytest.approx(1)]
    assert model.segments(10, 2.5) == [2.5] * 4
    with pytest.raises(ValueError, match="positive hours"):
        model.segments(10, 0)


def test_a_run_without_failures_costs_exactly_its_checkpoints():
    run = sim.run_job(10, 1.0, 0.0, C, seed=0)
    assert (run.failures, run.checkpoints) == (0, 10)
    assert run.overhead_h == pytest.approx(10 * C, abs=1e-9)


def test_a_failure_redoes_the_work_since_the_last_checkpoint_plus_a_one_second_restart():
    [kill] = [t for t in sim.failure_times(28, 0.02, 12) if t < 12]  # seed 28: one kill near 6 h
    run = sim.run_job(10, 1.0, 0.02, C, seed=28, keep_log=True)
    saved = int(kill // (1 + C))
    lost = kill - saved * (1 + C)
    assert (saved, run.failures, run.checkpoints) == (5, 1, 10)
    assert run.overhead_h == pytest.approx(10 * C + lost + 1 / 3600, abs=1e-9)
    story = sim.timeline(run.log_text)
    assert "5:59:35  worker.died" in story and "attempt=job#1/2" in story
    assert story.splitlines()[-1] == "11:02:06  task.finish task=job attempt=job#1/2 node=node:0"


def test_failure_times_are_a_poisson_process_from_the_seed_alone():
    times = sim.failure_times(3, 0.5, 10_000)
    assert times == sim.failure_times(3, 0.5, 10_000)
    assert len(times) / 10_000 == pytest.approx(0.5, rel=0.05)
    assert sim.failure_times(3, 0.0, 100) == []


def test_sim_intervals_divide_the_job():
    for rate, cost in ((0.02, C), (0.2, C), (0.005, 600 / 3600)):
        intervals = sim.sim_intervals(10, rate, cost)
        assert intervals == sorted(intervals) and len(intervals) >= 3
        for interval in intervals:
            assert 10 / interval == pytest.approx(round(10 / interval))


def test_measured_overheads_land_on_the_exact_curve():
    """0.2 failures/h: two failures per run, so 200 runs give a tight average (seeds 0-199)."""
    points = sim.measure_curve(10, 0.2, C, runs=200)
    assert [p.seeds for p in points] == [(0, 199)] * len(points)
    for p in points:
        assert p.mean_failures == pytest.approx(2.0, rel=0.2)
        assert abs(p.mean_overhead_h - p.model_h) <= 3 * p.stderr_h, p
    assert sim.measure(10, 1.0, 0.2, C, runs=20) == sim.measure(10, 1.0, 0.2, C, runs=20)


def test_chart_and_summary_show_the_numbers():
    knobs = widget.Knobs()
    text = widget.summary_line(knobs)
    assert (
        text
        == "interval 1.00 h: expected overhead 0.186 h (checkpoint I/O 0.083 h + lost to failures 0.102 h)"
    )
    html = widget.summary_html(knobs)
    assert "0.913 h (54.8 min)" in html and "0.907 h (54.4 min)" in html
    svg = svgplot.render(widget.chart(knobs))
    root = ET.fromstring(svg)
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "expected total (exact)" in labels and "yours" in labels and "Young" in labels


def test_measured_points_are_drawn_with_error_bars():
    points = sim.measure_curve(10, 0.2, C, runs=10)
    svg = svgplot.render(widget.chart(widget.Knobs(rate_per_h=0.2), points))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}circle")) == len(points)
    bars = [line for line in root.findall(f"{ns}line") if line.get("stroke-width") == "1.5"]
    assert len(bars) == sum(p.stderr_h > 0 for p in points)


def test_live_widget_recomputes_on_every_knob_and_clears_stale_points():
    pytest.importorskip("ipywidgets")
    lab = widget.CheckpointLab(runs=50)
    assert "interval 1.00 h" in lab.text.value
    lab.interval.value = 0.5
    assert "interval 0.50 h" in lab.text.value
    lab.rate.value = 0.2
    lab.runs.value = 50
    lab.button.click()
    assert len(lab.points) >= 3 and "seeds 0 to 49" in lab.text.value
    assert lab.plot.value.count("<circle") == len(lab.points)
    lab.interval.value = 0.3  # the measured points still hold
    assert lab.points
    lab.cost.value = 60  # they do not any more
    assert lab.points == [] and "measure again" in lab.text.value


def test_page_numbers_and_the_lab_use_the_same_kill_time():
    numbers = runpy.run_path(str(REPO / "lessons/numbers/06_checkpoint_interval.py"))
    notebook = (REPO / "lessons/06_checkpoint_interval.py").read_text()
    [default] = re.findall(r"def one_run\(.*kill_at_h=([\d.]+)\)", notebook)
    assert float(default) == numbers["STEP1_KILL_H"]
