"""Lesson 13's export, cancelled: what ray.get raises, the rows left, and that no mode retries."""

from __future__ import annotations

import runpy
from functools import cache
from pathlib import Path

import pytest

from faultlines.stories.told_to_stop import MODES, ROWS, export, sweep
from faultlines.widgets import told_to_stop as widget

REPO = Path(__file__).resolve().parents[2]


@cache
def _numbers() -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers/13_told_to_stop.py"), run_name="__numbers__")[
        "numbers"
    ]()


def test_a_cancelled_running_task_leaves_its_rows_and_is_not_retried():
    run = export("interrupt")
    assert (run.raised, run.rows, run.attempts) == ("RayTaskError(TaskCancelledError)", 4, 1)
    forced = export("force")
    assert (forced.raised, forced.rows, forced.attempts) == ("TaskCancelledError", 4, 1)


def test_a_queued_task_never_runs_and_an_actor_method_runs_on_unless_it_checks():
    assert (export("queued").rows, export("queued").attempts) == (0, 0)
    assert export("actor").rows == ROWS and export("actor").raised == "TaskCancelledError"
    assert export("actor + is_canceled").rows == 5  # checks before row 5, at 2.5 s


@pytest.mark.parametrize("mode", MODES)
def test_no_mode_runs_a_second_attempt_and_an_uncancelled_export_is_whole(mode):
    assert export(mode).attempts <= 1
    assert export(mode, None).rows == ROWS


def test_only_the_staged_export_is_all_or_nothing_at_every_cancel_time():
    assert set(sweep("staged")) <= {0, ROWS}
    assert any(0 < n < ROWS for n in sweep("interrupt"))


def test_the_page_states_the_story_numbers_and_ray_s_recorded_cancel():
    numbers = _numbers()
    assert numbers["interrupt_rows"] == "4" and numbers["queued_attempts"] == "0"
    assert "TaskCancelledError" in numbers["ray_table"] and "ValueError" in numbers["actor_table"]
    assert numbers["ray_interrupted"] == "returned"  # Ray 2.60 let this export run to its end
    page = (REPO / "docs/lessons/13_told_to_stop.md").read_text(encoding="utf-8")
    assert "{{ num 13_told_to_stop.ray_says }}" in page and "../exercises/fault15.md" in page


def test_the_widget_says_what_is_left_without_its_chart():
    box = widget.cancel_widget("staged", 2.0)
    text = box.children[-1].value
    assert "Rows in the table: 0 of 10 (all or nothing)" in text and "Attempts Ray started: 1" in text


def test_the_job_that_uses_the_notice_loses_nothing_and_the_other_loses_the_steps_since_its_checkpoint():
    from faultlines.stories.drain_notice import preemption

    ignores, uses = preemption("ignores the notice"), preemption("uses the notice")
    assert (ignores.lost, ignores.finished_at, ignores.attempts) == (6, 27.5, 2)
    assert (uses.lost, uses.finished_at) == (0, 20.0)
    assert "cause=drained" in uses.node_death and "cause=fault" in ignores.node_death
    assert "NodeDiedError" in _numbers()["drain_ray_says"] and "exits by itself" in _numbers()["drain_table"]
