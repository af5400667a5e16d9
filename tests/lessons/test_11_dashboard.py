"""Lesson 11's spill model against miniray runs, the timeline strip and the spill-cliff widget."""

from __future__ import annotations

import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import miniray as ray
from faultlines.stories import spill
from faultlines.widgets import spill_cliff, statechart

NS = "{http://www.w3.org/2000/svg}"


def test_the_worked_number():
    seed = spill.SpillInputs()  # 30 GB store, 28 GB live in 2 GB blocks, +4 GB, 500 MB/s, 50 readers
    predicted, measured = spill.predict(seed), spill.measure(seed)
    for result in (predicted, measured):
        assert result.spilled_gb == 2 and result.spilled_blocks == 1
        assert result.read_s == 4.0 and result.disk_seconds == 200.0
        assert round(result.fill_before_pct, 1) == 93.3 and result.fill_after_pct == 100.0
    # One 500 MB/s disk serves 50 reads of 2 GB: 200 s however many CPUs wait on it.
    assert predicted.elapsed_s == 200.0
    # miniray's node has one disk too: the readers on four CPUs take turns on it.
    assert measured.elapsed_s == 200.0


@pytest.mark.parametrize("threshold", [1.0, 0.8])
@pytest.mark.parametrize("extra", [1.0, 4.0, 6.0])
def test_arithmetic_matches_the_miniray_run_at_every_fill_level(threshold, extra):
    for live in range(0, 31, 2):
        inputs = spill.SpillInputs(live_gb=float(live), extra_gb=extra, readers=7, threshold=threshold)
        p, m = spill.predict(inputs), spill.measure(inputs)
        token = f"live={live} extra={extra} threshold={threshold}"
        assert (p.spilled_gb, p.read_s, p.disk_seconds) == (m.spilled_gb, m.read_s, m.disk_seconds), token
        assert round(p.fill_before_pct, 6) == round(m.fill_before_pct, 6), token
        assert round(p.fill_after_pct, 6) == round(m.fill_after_pct, 6), token


def test_the_cliff_is_a_step_not_a_slope():
    costs = [r.disk_seconds for r in spill.sweep(spill.SpillInputs())]
    assert costs[:14] == [0.0] * 14 and costs[14:] == [200.0, 200.0]


def test_rays_threshold_spills_before_the_store_is_full():
    result = spill.measure(spill.SpillInputs(threshold=0.8))
    assert result.fill_before_pct == 80.0 and result.spilled_gb == 8.0


def test_golden_signals_show_the_spill():
    golden = spill.measure(spill.SpillInputs()).golden
    assert golden["object_store_fill_pct"] == {"node:0": 100.0}
    assert golden["spill_rate_bytes_per_s"]["node:0"] > 0 and golden["pending_tasks"] == 0


def test_bad_inputs_get_one_clear_message():
    with pytest.raises(ValueError, match="whole number of blocks"):
        spill.predict(spill.SpillInputs(live_gb=27))
    with pytest.raises(ValueError, match="must fit in the store on its own"):
        spill.predict(spill.SpillInputs(extra_gb=31))
    with pytest.raises(ValueError, match="threshold"):
        spill.predict(spill.SpillInputs(threshold=1.5))


def test_from_trace_makes_a_row_per_task_from_a_real_trace():
    import time

    ray.init(num_cpus=3)
    try:

        @ray.remote
        def work(seconds):
            time.sleep(seconds)
            return seconds

        ray.get([work.remote(s) for s in (1, 1, 6)])
        strip = statechart.from_trace(ray.timeline(), "t", ("work",))
    finally:
        ray.shutdown()
    assert [(r.label, r.bands[0].start, r.bands[0].end) for r in strip.rows] == [
        ("work 1", 0.0, 1.0),
        ("work 2", 0.0, 1.0),
        ("work 3", 0.0, 6.0),
    ]
    assert ET.fromstring(statechart.render(strip)).find(f"{NS}title").text.startswith("t. work 1: work 0-1")


def test_widget_reruns_miniray_when_the_store_is_pushed():
    pytest.importorskip("ipywidgets")
    widget = spill_cliff.SpillCliffWidget()
    assert widget.measured.disk_seconds == 200.0 and "<svg" in widget.chart.value
    widget.live.value = 26
    assert widget.measured.disk_seconds == 0.0 and widget.measured.spilled_gb == 0
    widget.live.value = 28
    widget.disk.value = 2000
    assert widget.measured.read_s == 1.0 and widget.predicted.disk_seconds == 50.0
    assert "<td style='text-align:right'>50</td>" in widget.table.value


def test_page_numbers_come_from_these_runs():
    module = runpy.run_path(str(Path(__file__).parents[2] / "lessons/numbers/11_dashboard.py"))
    values = module["numbers"]()
    assert (values["spilled_gb"], values["read_s"], values["disk_s"], values["wall_s"]) == (
        "2",
        "4",
        "200",
        "200",
    )
    assert values["miniray_wall_s"] == "200"
    assert (values["strag_reduce"], values["strag_ratio"], values["even_reduce"]) == ("40", "20", "2")
    assert (values["leak_full_at"], values["leak_spilled_gb"], values["fixed_peak_gb"]) == ("8", "4", "0")
    assert values["memory_aggregate"].startswith("--- Aggregate object store stats")
