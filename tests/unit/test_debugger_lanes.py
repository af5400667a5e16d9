"""Issue 32: the debugger's lanes read on a phone and name every bar. Every attempt's bar names
its function or method and attempt ("clean#1/1"), shortened only where its whole name cannot
fit; the chart is drawn at its own width with a label column the front end keeps in place; the
passing run's outlines have a colour and a key of their own; "runs differ here" is never under
the broken invariant's line; a run that passes offers no comparison."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from faultlines.debugger import lanes, render, session, top_marks
from faultlines.grader import exercise, submission
from faultlines.widgets.statechart import Plot

REPO = Path(__file__).resolve().parents[2]
FAILURES = {
    "fault00": ("three-lines", ("crash clean#2/1 step=0",), "pipeline-finishes"),
    "fault05": ("two-orders", ("crash process_order#1/1 step=1",), "charged-at-most-once"),
}


def _source(exercise_id: str) -> session.ExerciseSource:
    ex = exercise.load(exercise_id)
    sub = submission.from_file(REPO / "exercises" / exercise_id / "starter.py", ex.entry, ex.line_budget)
    scenario, _, invariant = FAILURES[exercise_id]
    return session.ExerciseSource(ex, sub, scenario, invariant)


def test_a_bar_keeps_its_name_and_shortens_it_only_where_it_cannot_fit():
    assert lanes.fitting_label("clean#1/1", 200) == "clean#1/1"
    assert lanes.fitting_label("process_order#1/2", lanes.label_px("process_order#1/2") - 1) == (
        "process_ord…#1/2"
    )
    assert lanes.fitting_label("process_order#1/2", 60) == "pr…#1/2"
    assert lanes.fitting_label("process_order#1/2", 36) == "pro…"  # the attempt goes before the name
    assert lanes.fitting_label("Tally.add#2/1", 500) == "Tally.add#2/1"
    assert lanes.fitting_label("clean#1/1", 10) == ""  # not even two letters: the tooltip has it


@pytest.mark.parametrize("exercise_id", sorted(FAILURES))
def test_every_bar_of_a_starters_failing_run_shows_its_whole_name(exercise_id):
    """fault00's worker 10002 read "#1/1 #3/1 #2/1": now clean#1/1, clean#3/1, count#3/1."""
    source = _source(exercise_id)
    snap = source.run(FAILURES[exercise_id][1])
    chart = lanes.strip(snap.model, lanes.Marks())
    bars = [b for row in chart.rows if row.label.startswith("worker ") for b in row.bands]
    assert bars and all(b.text == b.tip.split(":")[0] for b in bars), [b.text for b in bars]
    svg = lanes.render(snap.model, lanes.Marks())
    assert f' width="{chart.width}" ' in svg and 'width="100%"' not in svg  # drawn at its own size
    if exercise_id == "fault00":
        worker = next(row for row in chart.rows if row.label == "worker 10002")
        assert [b.text for b in worker.bands] == ["clean#1/1", "clean#3/1", "count#3/1"]


def test_the_label_column_is_pinned_and_the_title_and_caption_are_outside_the_scroll():
    source = _source("fault00")
    snap = source.run(FAILURES["fault00"][1])
    html = render.view(snap, session.passing_run(source, snap))
    pin = re.search(r'<g class="fl-dbg-pin">(.*?)</g>', html, re.S)
    assert pin and all(f">{row}</text>" in pin.group(1) for row in ("node:1", "worker 10002", "worker 10004"))
    assert html.index('class="fl-dbg-lanes-title"') < html.index('class="fl-dbg-lanes"')
    assert html.index('class="fl-dbg-lanes-caption"') > html.index("</svg>")
    # The passing run: outlines with a key beside the checkbox, and no "dotted outlines" prose.
    assert html.count('class="fl-dbg-ghost-bar"') >= 2 and 'class="fl-dbg-ghost-key"' in html
    assert "outlines: the bars of your run without crash clean#2/1 step=0" in html


def test_a_passing_run_offers_no_comparison():
    source = _source("fault00")
    failing = source.run(FAILURES["fault00"][1])
    passing = session.passing_run(source, failing)
    assert passing is not None
    fixed = source.run(())
    assert not fixed.verdict.failed
    html = render.view(fixed, passing)  # the widget keeps the failing run's passing run
    assert "Compare with a passing run" not in html and "fl-dbg-ghost" not in html


PLOT = Plot(px=lambda x: 100 + x * 30, left=100, width=600, top=36, height=150, pitch=26, row_height=26)


@pytest.mark.parametrize(("differ", "broken"), [(12, 14), (14, 14), (13, 14), (3, 18), (18, 19), (0, 1)])
def test_runs_differ_here_is_never_under_the_broken_invariants_line(differ, broken):
    label = "pipeline-finishes broken"
    line, left, paper = top_marks.differ_place(PLOT, differ, broken, label)
    width = top_marks.TEXT_PX * len(top_marks.DIFFER)
    bx, b_left, b_right, _ = top_marks._violation_span(PLOT, broken, label)
    if line == "lower" and not paper:
        assert not left - 2 <= bx <= left + width + 2
    elif line == "upper":
        assert left + width < b_left or left > b_right
    assert left >= 0 and left + width <= PLOT.left + PLOT.width + 12


def test_axis_labels_are_in_the_runs_unit_and_never_repeat():
    from faultlines.debugger.lanes import seconds, time_ticks
    from faultlines.reading import Event

    assert (seconds(1.50004, 1.5), seconds(4.5e-6, 1.5), seconds(0.012, 0.5), seconds(4.5e-6, 5e-5)) == (
        "1.5 s",
        "0 s",
        "12 ms",
        "4.5 µs",
    )
    times = [0.0, 4.5e-6, 9e-6, 1.0, 1.50004, 1.500041]
    events = [Event(i, t, i, "task.start", {}, "", "", False) for i, t in enumerate(times)]
    assert [label for _, label in time_ticks(events, 100)] == ["0 s", "1 s", "1.5 s"]
