"""Issue 31's facts, each held where a test can hold it: Ray 2.60's recording (and, with RAY_PYTHON,
the installed Ray itself), the numbers the pages print, and the pages' own words.

1. Call sites are recorded only with RAY_record_ref_creation_sites=1 (ray/dashboard/memory_utils.py).
2. `ray.util.state` has no `memory()` (ray/util/state/__init__.py); no lab calls it.
3. Ray counts a crashed node's refused health checks toward its threshold (gcs_health_check_manager.cc).
4. `max_task_retries` retries a method that raises when `retry_exceptions` is set (ray/actor.py).
5. `ray_tasks` is a gauge.
And the pages that contradicted themselves: lesson 8's two counts, lesson 9's backoff and Tick,
lesson 12's timing and job length, lesson 3's break-even, interview.md against lesson 10.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
from functools import cache
from pathlib import Path

import jupytext
import pytest

from conformance.observations import load_recorded

REPO = Path(__file__).resolve().parents[2]
RECORDED = load_recorded()


@cache
def _numbers(lesson: str) -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers" / f"{lesson}.py"), run_name="__numbers__")["numbers"]()


def _page(name: str) -> str:
    return (REPO / "docs" / name).read_text(encoding="utf-8")


def _lab(stem: str) -> str:
    return "\n".join(cell.source for cell in jupytext.read(REPO / "lessons" / f"{stem}.py").cells)


def _ray(code: str) -> dict:
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        pytest.skip("RAY_PYTHON is unset: `make test` sets it to .venv-ray/bin/python (ray[default]==2.60.0)")
    out = subprocess.run([ray_python, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- 1. call sites ---------------------------------------------------------------------------------
def test_call_sites_read_disabled_unless_ray_is_told_to_record_them():
    rec = RECORDED["lesson11_memory"]
    assert rec["default"]["_said_call_site"] == "disabled"
    assert rec["call_sites"]["_said_call_site"].startswith("(put object)")
    assert "| disabled  |" in rec["default"]["_said_memory"]
    for page in ("lessons/11_dashboard.md", "reference/interview.md", "reference/miniray.md"):
        assert "RAY_record_ref_creation_sites=1" in _page(page), page
    assert "RAY_record_ref_creation_sites=1" in (REPO / "exercises/fault12/statement.md").read_text()
    assert "{{ num 11_dashboard.ray_says }}" in _page("lessons/11_dashboard.md")


def test_ray_2_60_source_writes_disabled_for_an_empty_call_site():
    got = _ray(
        "import json, inspect, ray.dashboard.memory_utils as m; "
        "print(json.dumps({'disabled': '\"disabled\"' in inspect.getsource(m)}))"
    )
    assert got == {"disabled": True}


# -- 2. ray.util.state.memory() --------------------------------------------------------------------
def test_no_lab_calls_what_ray_does_not_have():
    for source in sorted((REPO / "lessons").glob("[01][0-9]_*.py")):
        text = _lab(source.stem)
        assert "state.memory(" not in text and "memory_summary(" not in text, source.name


def test_the_reference_marks_memory_miniray_only_and_names_ray_s_equivalents():
    page = _page("reference/miniray.md")
    section = page[page.index("## miniray only") : page.index("## Each worker")]
    assert "`miniray.util.state.memory()`" in section and "`ray memory`" in section
    assert "`ray.util.state.list_objects()`" in section
    assert "`ray.util.state.memory()`" not in page


def test_ray_2_60_has_list_objects_and_no_memory():
    got = _ray(
        "import json, ray, ray.util.state as s; print(json.dumps({'memory': hasattr(s, 'memory'), "
        "'list_objects': hasattr(s, 'list_objects'), 'memory_summary': hasattr(ray, 'memory_summary')}))"
    )
    assert got == {"memory": False, "list_objects": True, "memory_summary": False}


# -- 3. a crash is counted, not taken at one refusal ---------------------------------------------
def test_ray_counted_every_refused_health_check_before_its_verdict():
    log = RECORDED["lesson07_crashed_node"]["_said_log"].splitlines()
    failed = [line for line in log if "Health check failed for node" in line]
    threshold = 10  # FAST_FAILURE_DETECTION, tests/conformance/scenarios/_cluster.py
    assert len(failed) == threshold and all("Connection refused" in line for line in failed)
    assert [f"remaining checks {n}," in line for n, line in zip(range(threshold - 1, -1, -1), failed)] == [
        True
    ] * 10
    assert "Node is dead because the health check failed" in log[-1]
    assert _numbers("07_liveness")["ray_failed_checks"] == str(threshold)


def test_lesson_7_no_longer_calls_a_refusal_conclusive():
    for text in (_page("lessons/07_liveness.md"), _lab("07_liveness")):
        assert "not ambiguous" not in text
        assert "refuses the connection, and" not in text
    page = _page("lessons/07_liveness.md")
    assert "A crashed *host* sends nothing back" in page and "{{ num 07_liveness.ray_says }}" in page


# -- 4. max_task_retries and retry_exceptions -------------------------------------------------------
def test_a_method_that_raises_is_retried_with_retry_exceptions():
    rec = RECORDED["lesson04_method_retries"]
    assert rec["default"]["runs"] == 1 and rec["retry_exceptions_true"]["runs"] == 3  # max_task_retries=2
    assert rec["retry_exceptions_true"]["error"] == "RayTaskError(ValueError)"
    page = _page("lessons/04_actors.md")
    assert "It does not cover a method that raises" not in page
    bullet = page[page.index("- **`max_task_retries`**") : page.index("The caller sees one of two errors")]
    assert "retry_exceptions" in bullet and "{{ num 04_actors.method_runs_retried }}" in bullet


# -- 5. ray_tasks is a gauge --------------------------------------------------------------------------
def test_ray_tasks_is_a_gauge_and_lesson_2_does_not_rate_it():
    assert "# TYPE ray_tasks gauge" in RECORDED["lesson11_metrics"]["_said_metrics"]
    assert _numbers("02_task_retries")["ray_tasks_type"].endswith("# TYPE ray_tasks gauge")
    page = _page("lessons/02_task_retries.md")
    assert "Alert on their rate" not in page and "gauge" in page


# -- the contradictions -----------------------------------------------------------------------------
def test_lesson_8_s_story_and_its_table_count_the_same_program():
    n = _numbers("08_placement")
    rows = {
        r.split("|")[1].strip(): r.split("|")[3].strip()
        for r in n["ray_table"].splitlines()[2:]
        if r.count("|") >= 4
    }
    assert rows["how many (timing decides)"] == f"{n['bad_failed']} of {n['bad_rows']}"


def test_lesson_9_s_wait_is_the_delay_then_the_tick():
    n = _numbers("09_recovery_not_progress")
    cap, wait = float(n["backoff_cap_s"]), float(n["latency_backoff_s"])
    assert cap < wait <= cap + 1.0  # the GCS's Tick runs once a second
    page = _page("lessons/09_recovery_not_progress.md")
    assert "`Tick`" in page and "{{ num 09_recovery_not_progress.backoff_cap_s }}" in page


def test_lesson_12_s_trainer_runs_alone_and_its_decisions_are_for_the_long_job():
    n = _numbers("12_capstone")
    assert float(n["actor_clean"]) == float(n["steps"]) * float(n["step_s"])  # trained from the run's start
    page = _page("lessons/12_capstone.md")
    assert "train from the start of the run" in " ".join(page.split())
    assert "production job" in page and "{{ num 12_capstone.job_h }} h" in page


def test_lesson_3_s_early_stage_raises_the_break_even_for_the_right_reason():
    n = _numbers("03_lineage")
    assert float(n["early_break_even"]) > float(n["break_even"])
    page = _page("lessons/03_lineage.md")
    assert "has to buy back less" not in page and "the write saves less" in page


def test_interview_and_lesson_10_agree_on_a_pause():
    page = _page("reference/interview.md")
    assert "costs nothing" not in page
    assert "{{ num 10_fleet_health.blip3_out }}" in page and "{{ num 10_fleet_health.blip1_out }}" in page
    assert "{{ num 10_fleet_health.blip3_out }}" in _page("lessons/10_fleet_health.md")


def test_lesson_3_names_the_streaming_generator_replay_rule():
    page = _page("lessons/03_lineage.md")
    assert "StreamingGeneratorReplayInconsistentError" in page and "## The four cliffs" in page


def test_lesson_10_says_its_controller_is_a_model_and_what_it_leaves_out():
    page = _page("lessons/10_fleet_health.md")
    assert "It is not NeMo-RL's controller" in page
    for case in ("router", "second failed", "after an abort", "lone SUSPECT", "reshard"):
        assert case in page, case
    for term in ("**Ledger**", "**Supervisor**", "**watchdog**", "**Promotion rule**"):
        assert term.lower() in page.lower(), term
