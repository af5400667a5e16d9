"""Each lesson shows real Ray 2.60's recorded run beside miniray's, and states no Ray behaviour the
recording contradicts.

A lesson page prints `{{ num NN_slug.ray_table }}`: its numbers module builds the table with
conformance.recorded_view.compare, which reads tests/conformance/recorded/ray-2.60.0.json and
runs the same scenario on miniray. These tests read the recording themselves and check that the
outcomes the page quotes (in the table and in its prose) are the recorded ones, and that Ray's
column and miniray's agree on every row they must.
"""

from __future__ import annotations

import runpy
from functools import cache
from pathlib import Path

import pytest

from conformance.observations import load_recorded

REPO = Path(__file__).resolve().parents[2]
# The scenario each lesson's table shows: its own story where Ray can run it, else the closest.
# Lesson 3's opening story is being rewritten with the engine; it has no table yet.
TABLES = {
    "01_mini_runtime": "lesson01_node_loss",
    "02_task_retries": "lesson02_quote_outage",
    "04_actors": "lesson04_counter_forgets",
    "05_idempotency": "lesson05_double_charge",
    "06_checkpoint_interval": "task_worker_death",
    "07_liveness": "lesson01_node_loss",
    "08_placement": "lesson08_bad_node",
    "09_recovery_not_progress": "placement_group_starvation",
    "10_fleet_health": "actor_restart",
    "11_dashboard": "lesson11_spill",
    "12_capstone": "lesson12_trainer_dies",
    "13_told_to_stop": "lesson13_cancel",
    "14_replays": "lesson14_replays",
}
RECORDED = load_recorded()


@cache
def _numbers(lesson: str) -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers" / f"{lesson}.py"), run_name="__numbers__")["numbers"]()


def _rows(table: str) -> dict[str, tuple[str, str]]:
    lines = table.splitlines()
    assert lines[0] == "| | real Ray 2.60, recorded | miniray |", lines[0]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return {label: (ray, mini) for label, ray, mini in cells}


@pytest.mark.parametrize("lesson", sorted(TABLES))
def test_the_page_shows_the_recorded_table_and_ray_agrees_with_miniray(lesson: str):
    page = (REPO / "docs/lessons" / f"{lesson}.md").read_text(encoding="utf-8")
    assert f"{{{{ num {lesson}.ray_table }}}}" in page, f"{lesson} does not show Ray's recorded run"
    assert TABLES[lesson] in RECORDED, f"{TABLES[lesson]} has no recording"
    rows = _rows(_numbers(lesson)["ray_table"])
    assert rows
    differing = {label: pair for label, pair in rows.items() if pair[0] != pair[1]}
    assert set(differing) <= {"how many (timing decides)"}, differing


def test_lesson_1_quotes_the_recorded_node_loss():
    rec, rows = RECORDED["lesson01_node_loss"], _rows(_numbers("01_mini_runtime")["ray_table"])
    assert rows["`ray.get` returned"][0] == str(rec["values"]) and rec["error"] is None
    assert rows["the task running on the lost node"][0] == "ran again" and rec["running_there_ran_again"]
    assert (
        rows["a task that had finished on it"][0] == "did not run again"
        and not rec["finished_there_ran_again"]
    )
    assert _numbers("01_mini_runtime")["no_retry_error"] == rec["max_retries_0"]["error"] == "NodeDiedError"


def test_lesson_2_quotes_one_attempt_without_retry_exceptions():
    rec = RECORDED["lesson02_quote_outage"]
    n = _numbers("02_task_retries")
    assert n["ray_attempts"] == str(rec["default"]["attempts"]) == n["quote_attempts"] == "1"
    assert n["quote_error"] == rec["default"]["result"]["error"]["class"]
    assert n["listed_attempts"] == str(rec["retry_listed"]["attempts"])


def test_lesson_4_quotes_the_recorded_counts():
    rec, n = RECORDED["lesson04_counter_forgets"], _numbers("04_actors")
    assert n["story_lines"].split()[2:12] == [str(v) for v in rec["returned"][:10]]
    assert n["story_final"] == str(rec["final_count"]) and n["story_errors"] == str(rec["errors"])


def test_lesson_5_quotes_two_charges_and_the_second_attempt_s_answer():
    rec, n = RECORDED["lesson05_double_charge"], _numbers("05_idempotency")
    assert n["story_charges"] == str(len(rec["charges"])) == "2"
    assert n["story_result"] == rec["result"]["value"]


def test_lesson_8_and_12_open_with_the_recorded_failure():
    bad = RECORDED["lesson08_bad_node"]
    assert bad["some_rows_failed"] and bad["failed_rows_ran_four_times_all_failing"]
    assert int(_numbers("08_placement")["bad_failed"]) > 0
    trainer, n = RECORDED["lesson12_trainer_dies"], _numbers("12_capstone")
    assert n["story_error"] == trainer["max_restarts_0"]["error"]["class"] == "ActorDiedError"
    assert n["story_step"] == str(trainer["max_restarts_0"]["last_step"])


def test_lesson_10_says_which_actor_error_is_conclusive():
    rec = RECORDED["actor_restart"]["no_task_retries"]
    assert rec["dying_call"]["error"]["class"] == "ActorUnavailableError"
    assert rec["second_dying_call"]["error"]["class"] == "ActorDiedError"
    page = (REPO / "docs/lessons/10_fleet_health.md").read_text(encoding="utf-8")
    assert "ActorUnavailableError" in page and "only once the actor's process is really gone" not in page


def test_lesson_11_names_the_error_of_a_full_disk():
    page = (REPO / "docs/lessons/11_dashboard.md").read_text(encoding="utf-8")
    assert "`OutOfDiskError`" in page
    assert (
        RECORDED["lesson11_spill"]["some_blocks_spilled"]
        and RECORDED["lesson11_spill"]["oldest_block_intact"]
    )
