"""Lesson 14's course code: what a consumer reads after a rebuild of a clock-seeded draw and of a
generator that reads a changing table, the fixes (a seed and a version as arguments), the page's
numbers against the story and Ray's recording, and the widget."""

from __future__ import annotations

import functools
import runpy

import pytest

from conformance.observations import load_recorded
from faultlines.stories import replays as story
from faultlines.timeline import observe
from faultlines.widgets.replay_check import replay_check_widget, table_rows, verdict
from tests.lessons.lesson_files import REPO

INCONSISTENT = "RayTaskError(StreamingGeneratorReplayInconsistentError)"


def _reads(**kwargs) -> dict:
    observed = observe(functools.partial(story.replays, **kwargs))
    assert observed.ok, observed.run.error
    return observed.run.value


def test_the_clock_seeded_draws_come_back_different_and_the_longer_stream_fails():
    observed = observe(story.replays)
    value = observed.run.value
    assert value["first"]["rows"] == ["a", "b", "c"]
    assert value["again"]["draws"] != value["first"]["draws"]  # the same ref, other values, no error
    assert value["again"]["rows"] == ["a", INCONSISTENT, INCONSISTENT]
    log = observed.run.log_text
    assert "task.reconstruct task=sample" in log and "task.reconstruct task=rows" in log
    assert "attempt=sample#1/2" in log and "attempt=rows#1/2" in log


def test_a_seed_and_a_version_passed_as_arguments_make_both_replays_repeat():
    value = _reads(seed=7, snapshot=True)
    assert value["again"] == value["first"]
    seeded = _reads(seed=7)
    assert seeded["again"]["draws"] == seeded["first"]["draws"]
    assert seeded["again"]["rows"][1:] == [INCONSISTENT, INCONSISTENT]  # the seed alone fixes the draws only


@pytest.mark.parametrize(
    ("change", "rows"),
    [("edit", ["A", "b", "c"]), ("none", ["a", "b", "c"]), ("delete", ["a", INCONSISTENT, INCONSISTENT])],
)
def test_ray_checks_the_count_not_the_values(change, rows):
    assert _reads(change=change)["again"]["rows"] == rows
    assert _reads(change=change, snapshot=True)["again"]["rows"] == ["a", "b", "c"]


def test_the_recording_agrees_with_the_story():
    rec = load_recorded()["lesson14_replays"]
    assert rec["clock_draws_rebuilt"] == "different" and rec["seeded_draws_rebuilt"] == "the same"
    assert rec["unkeyed_last_row_after"]["class"] == "StreamingGeneratorReplayInconsistentError"
    assert rec["keyed_rows_after"] == ["a", "b", "c"]
    assert "produced 4 objects, expected 3" in rec["_said_error"]
    crashed = load_recorded()["generator_replay"]["crashed_more"]
    assert [v["value"] for v in crashed["values"]] == [0, 1, 2, 3]  # a retry is not checked


def test_the_page_prints_the_storys_numbers():
    n = runpy.run_path(str(REPO / "lessons/numbers/14_replays.py"), run_name="__numbers__")["numbers"]()
    value = _reads()
    assert n["first_draws"] == ", ".join(map(str, value["first"]["draws"]))
    assert n["again_draws"] == ", ".join(map(str, value["again"]["draws"]))
    assert (
        n["again_rows"]
        == "a, `StreamingGeneratorReplayInconsistentError`, `StreamingGeneratorReplayInconsistentError`"
    )
    assert n["edit_rows"] == "A, b, c" and n["crash_items"] == "4"
    assert "expected 3" in n["ray_says"] and "expected 3" in n["miniray_says"]
    page = (REPO / "docs/lessons/14_replays.md").read_text(encoding="utf-8")
    assert "../exercises/fault16.md" in page


def test_the_widget_runs_the_story_for_each_choice():
    widget = replay_check_widget()
    seed, read, change, summary, plot, table = widget.children
    assert summary.value == "<p><strong>1 of 6 values the same; 3 differ silently; 2 raise</strong></p>"
    assert plot.value.startswith("<svg") and "StreamingGeneratorReplayInconsistentError" in table.value
    seed.value, read.value = "an argument", "a version"
    assert "6 of 6 values the same" in summary.value
    read.value, change.value = "what it holds now", "edit"
    assert "5 of 6 values the same; 1 differ silently; 0 raise" in summary.value


def test_the_widgets_table_names_each_verdict_in_words():
    rows = table_rows(_reads(change="edit"))
    assert rows[0] == ("value", "first read", "after the rebuild", "")
    assert ("row 1", "a", "A", "differs, no error") in rows
    assert verdict(_reads(seed=7, snapshot=True)) == "6 of 6 values the same; 0 differ silently; 0 raise"
