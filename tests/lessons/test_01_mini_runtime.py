"""Lesson 1's course code: the lanes read from a run's trace, their text and SVG, the fault-time widget."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import miniray
from faultlines.stories.squares import squares
from faultlines.timeline import from_trace, observe, render_text
from faultlines.timeline.lanes import FAILED, OK
from faultlines.widgets import statechart
from faultlines.widgets.fault_time import fault_time, faults_for
from miniray import exceptions as E

NS = "{http://www.w3.org/2000/svg}"

FAULT = "kill_node node:1 at=1.5"


def test_story_recovers_from_the_node_loss_one_retry_later():
    clean, broken = observe(squares), observe(squares, faults=[FAULT])
    assert clean.run.value == broken.run.value == [0, 1, 4, 9, 16, 25]
    assert (clean.run.virtual_time, broken.run.virtual_time) == (2.0, 3.5)
    assert (clean.lanes.attempts(), broken.lanes.attempts()) == (6, 7)
    [lost] = broken.lanes.failed()
    assert (lost.label, lost.kind, lost.start, lost.end) == ("square#5/1", FAILED, 1.0, 1.5)
    retry = next(b for b in broken.lanes.bars() if b.label == "square#5/2")
    assert (retry.kind, retry.retry, retry.start, retry.end) == (OK, True, 2.5, 3.5)
    assert [m.label for m in broken.lanes.marks] == ["kill_node node:1", "node:1 died"]


def test_rows_are_workers_sorted_by_node_then_pid():
    lanes = observe(squares, faults=[FAULT]).lanes
    assert [r.name for r in lanes.rows] == [
        "node:1 worker 10002",
        "node:1 worker 10004",
        "node:2 worker 10003",
        "node:2 worker 10005",
    ]


def test_text_lanes_draw_each_attempt_where_it_ran():
    text = render_text(observe(squares, faults=[FAULT]).lanes)
    lines = text.splitlines()
    assert lines[0].split() == ["t", "(s)", "0", "1", "2", "3"]
    assert lines[1].endswith("[#1==][=X")  # square#5 dies on node:1 at 1.5 s
    assert lines[4].endswith("[#4==]         [#5/2]")  # and runs again on node:2 from 2.5 s
    assert "^ kill_node node:1 at t=1.5 s" in text


def test_text_lanes_name_a_functions_first_call_when_it_fits():
    from faultlines.timeline.text import _labels

    assert _labels("load#1/2") == ["load#1/2", "load/2", "#1/2"]
    assert _labels("square#5/1") == ["square#5", "#5"]


def test_error_bars_close_with_E():
    def raises():
        miniray.init(num_cpus=1)

        @miniray.remote
        def bad():
            raise ValueError("x")

        return miniray.get(bad.remote())

    observed = observe(raises)
    assert isinstance(observed.run.error, E.RayTaskError)
    assert render_text(observed.lanes).splitlines()[1].endswith("[E")
    assert observed.outcome().startswith("RayTaskError(ValueError)")


def test_svg_lanes_say_what_happened_without_colour():
    lanes = observe(squares, faults=[FAULT]).lanes
    svg = statechart.render(statechart.from_lanes(lanes, title="story"))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<title>story: 7 attempts, 1 did not finish</title>" in svg
    assert svg.count("<rect") == 7  # one per attempt
    assert 'stroke-dasharray="5 3"' in svg  # the retry's outline
    assert ">X</text>" in svg and "kill_node node:1 at 1.5 s" in svg


def test_lanes_from_an_empty_trace():
    lanes = from_trace([])
    assert lanes.rows == () and lanes.attempts() == 0
    assert render_text(lanes).startswith("t (s)")


def test_widget_reruns_the_story_under_the_chosen_fault():
    widget = fault_time(squares)
    kind, node = widget.children[0].children
    at = widget.children[1]
    table = widget.children[3]
    assert "<td>3.5</td>" in table.value and "<td>7</td>" in table.value
    at.value = 0.25
    assert "<td>3</td>" in table.value and "<td>8</td>" in table.value
    kind.value = "no fault"
    assert "<td>2</td>" in table.value and "<td>6</td>" in table.value
    assert "<svg" in widget.children[2].value and "[#1==]" in widget.children[4].value
    assert faults_for("kill_worker", "node:2", 0.5) == ["kill_worker node:2 at=0.5"]


def test_a_fault_after_the_run_ended_keeps_its_marker_and_says_it_changed_nothing():
    """Issue 24: the kill slid past the job's end (2 s) used to vanish from the chart, as it
    never struck. Its marker stays, at the chosen time past the last bar, labelled inside the
    drawing, and the table says why the run is the fault-free one."""
    widget = fault_time(squares)
    at = widget.children[1]
    at.value = 3.0
    chart, table = widget.children[2].value, widget.children[3].value
    root = ET.fromstring(chart)
    labels = [t for t in root.iter(f"{NS}text") if "after the run ended" in (t.text or "")]
    assert [t.text for t in labels] == ["kill_node node:1 at 3 s: after the run ended"]
    (label,) = labels
    width = float(root.get("viewBox").split()[2])
    assert label.get("text-anchor") == "end" and float(label.get("x")) <= width
    rules = [ln for ln in root.iter(f"{NS}line") if ln.get("stroke-dasharray") == "4 3"]
    bars_end = max(float(r.get("x")) + float(r.get("width")) for r in root.iter(f"{NS}rect") if r.get("rx"))
    assert len(rules) == 1 and float(rules[0].get("x1")) > bars_end
    assert "came after the run ended, so it changed nothing" in table
    assert "<td>2</td>" in table  # the fault-free run: finished at 2 s
    # Back before the end, the fault strikes and its marker is the run's own.
    at.value = 1.5
    assert "after the run ended" not in widget.children[2].value + widget.children[3].value
    assert "kill_node node:1" in widget.children[2].value


def test_no_retries_surfaces_the_node_death():
    observed = observe(functools.partial(squares, max_retries=0), faults=[FAULT])
    assert isinstance(observed.run.error, E.NodeDiedError)
    assert observed.lanes.attempts() == 6
