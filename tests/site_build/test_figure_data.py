"""The lesson figures plot the lessons' own numbers: every lesson page places a build-time figure,
and each figure's data (its script's `data()`, computed by the lesson's code) agree with what
the lesson's numbers module puts on the page. Runs without matplotlib: a figure script imports
it only to draw, so what it plots can be checked apart from how it looks."""

from __future__ import annotations

import runpy
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hooks.site_build import lesson_figures

REPO = Path(__file__).resolve().parents[2]
LESSON_PAGES = sorted((REPO / "docs/lessons").glob("[0-9][0-9]_*.md"))


@cache
def _figure(name: str) -> dict[str, Any]:
    return runpy.run_path(str(REPO / lesson_figures.SCRIPTS_DIR / f"{name}.py"), run_name="__figure_test__")


@cache
def _data(name: str) -> Any:
    return _figure(name)["data"]()


@cache
def _numbers(module: str) -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers" / f"{module}.py"))["numbers"]()


def test_there_are_the_primer_and_a_page_for_every_lesson_the_nav_lists():
    assert [p.name for p in LESSON_PAGES][0] == "00_ray_in_one_page.md"
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    listed = {p.name for p in LESSON_PAGES if f"lessons/{p.name}" in nav}
    assert len(LESSON_PAGES) >= 13 and listed == {p.name for p in LESSON_PAGES}, sorted(listed)


def test_the_primer_draws_every_piece_it_names():
    """The system model's boxes are the pieces the primer's steps walk through."""
    m = _data("00_system_model")
    labels = {b.label for b in m.boxes}
    assert {"driver", "GCS", "raylet", "object store", "worker process"} <= labels
    page = (REPO / "docs/lessons/00_ray_in_one_page.md").read_text()
    assert all(label in page for label in labels)
    assert {(m.box(a.start).node, m.box(a.end).node) for a in m.arrows} >= {
        ("head", "worker"),
        ("worker", "head"),
    }


def test_lesson_9_cycle_is_the_page_s_run_under_both_policies():
    ray_policy, backoff = _data("09_wait_for_cycle")
    n = _numbers("09_recovery_not_progress")
    assert f"{ray_policy.attempts['PG_C']}" == n["story_pg_c"] == "0"  # a zero that stays visible
    assert ray_policy.cycles == backoff.cycles == (("PG_A", "PG_B", "PG_A"),)
    assert " -> ".join(backoff.cycles[0]) == n["backoff_cycle"]
    assert backoff.states["PG_C"] == "CREATED" and backoff.attempts["PG_C"] == int(n["backoff_pg_c_attempts"])
    assert all(ray_policy.in_cycle(w, h) for w, h, _ in ray_policy.edges)


@pytest.mark.parametrize("page", LESSON_PAGES, ids=lambda p: p.stem)
def test_every_lesson_page_places_a_build_time_figure(page: Path):
    names = lesson_figures.PLACEHOLDER.findall(page.read_text())
    assert names, f"{page.name} places no {{{{ figure … }}}}"
    scripts = {script.stem for script in lesson_figures.scripts(REPO)}
    assert set(names) <= scripts, f"{page.name} names figures with no script: {set(names) - scripts}"


@pytest.mark.parametrize("script", lesson_figures.scripts(REPO), ids=lambda p: p.stem)
def test_every_figure_script_separates_data_words_and_drawing(script: Path):
    """data(), describe() and draw() exist, and the words are built from the data alone."""
    made = _figure(script.stem)
    assert all(callable(made.get(f)) for f in ("data", "describe", "draw"))
    alt, caption = made["describe"](_data(script.stem))
    assert len(alt.split()) >= 20, "alt text should describe the figure, not label it"
    assert caption.strip()


def test_lesson_1_timeline_is_the_page_s_failing_run():
    t, n = _data("01_task_timeline"), _numbers("01_mini_runtime")
    assert t.fault == n["fault"]
    assert str(t.lanes.attempts()) == n["fault_attempts"]
    assert f"{t.lanes.end:g}" == n["fault_s"] and f"{t.clean_end_s:g}" == n["clean_s"]
    [retry] = [bar for bar in t.lanes.bars() if bar.retry]
    assert f"{retry.start:g}" == n["retry_start"]


def test_lesson_2_curves_pass_through_the_page_s_worked_cases():
    c, n = _data("02_retry_cost"), _numbers("02_task_retries")
    assert f"{c.page.attempts:.3f}" == n["p3_attempts"] and f"{c.page.wasted:.3f}" == n["p3_wasted"]
    default = {x.p: x for x in c.by_retries[3]}
    assert f"{default[0.9].attempts:.2f}" == n["p9_attempts"]
    assert f"{default[1.0].attempts:g}" == n["p1_attempts"]


def test_lesson_3_stages_include_the_page_s_measured_loss():
    losses, n = _data("03_lineage_stages"), _numbers("03_lineage")
    assert str(len(losses.stages)) == n["stages"]
    at = losses.stages.index(int(n["lost_at"]))
    assert f"{losses.lineage_s[at]:g}" == n["measured_lineage"]
    assert f"{losses.materialize_s[at]:g}" == n["measured_materialize"]


def test_lesson_4_spacings_include_the_page_s_two_runs():
    s, n = _data("04_actor_checkpoints"), _numbers("04_actors")
    assert str(s.forgotten[s.every.index(0)]) == n["story_forgotten"]
    page = s.every.index(int(n["ckpt_every"]))
    assert str(s.forgotten[page]) == n["ckpt_forgotten"]
    assert str(s.checkpoints[page]) == n["ckpt_written"]


def test_lesson_5_grid_is_the_page_s_table():
    c, n = _data("05_charges_grid"), _numbers("05_idempotency")
    rows = n["grid"].splitlines()[1:]
    table = {row[:16].strip(): tuple(int(x) for x in row[16:].split()) for row in rows}
    assert table == c.by_fix
    assert str(c.doubles()) == n["grid_doubles"]


def test_lesson_6_curve_and_points_are_the_page_s():
    n = _numbers("06_checkpoint_interval")
    assert f"{_data('06_checkpoint_interval').young_h:.2f}" == n["low_young_h"]
    table = n["measured_table"].splitlines()[1:]
    points = _data("06_checkpoint_measured").points
    assert len(table) == len(points)
    for row, point in zip(table, points, strict=True):
        interval, runs, _failures, mean, _pm, _err, model = row.split()[0:1] + row.split()[2:]
        assert f"{point.interval_h:.3f}" == interval and str(point.runs) == runs
        assert f"{point.mean_overhead_h:.3f}" == mean and f"{point.model_h:.3f}" == model


def test_lesson_7_points_are_the_page_s_runs_and_bands_its_model():
    d, n = _data("07_detection_time"), _numbers("07_liveness")
    assert str(d.page_threshold) == n["threshold"] and f"{d.interval_s:g}" == n["interval"]
    assert f"{d.crash_measured_s + 7:g}" == n["crash_dead"]
    assert f"{d.hang_measured_s + 2:g}" == n["hang_dead"]
    page = d.models[d.page_threshold - 1]
    assert (f"{page.hang_best_s:g}", f"{page.hang_worst_s:g}") == (n["hang_best"], n["hang_worst"])


def test_lesson_8_refusals_are_the_page_s():
    f, n = _data("08_packing_fragmentation"), _numbers("08_placement")
    module = _figure("08_packing_fragmentation")
    for strategy, key in (("default", "spread_refuses_at"), ("pack", "pack_refuses_at")):
        at = module["refused_at"](f.curves[strategy])
        assert (f"{100 * at:.0f}" if at is not None else "never") == n[key]


def test_lesson_9_counters_are_the_page_s_traces():
    t, n = _data("09_pg_attempts"), _numbers("09_recovery_not_progress")
    hot, bounded = t.by_policy["ray-2.60"], t.by_policy["bounded 10 ms"]
    assert f"{hot.final('PG_A'):,}" == n["trace_pg_a"] and f"{hot.final('PG_C')}" == n["trace_pg_c"]
    assert f"{bounded.final('PG_A'):,}" == n["bounded_pg_a"]


def test_lesson_10_state_changes_are_the_page_s_runs():
    r, n = _data("10_shard_states"), _numbers("10_fleet_health")
    crash, hang, blip = r.by_fault["crash"], r.by_fault["hang"], r.by_fault["blip"]
    assert (f"{crash.dead_at:g}", f"{crash.healthy_at:g}") == (n["crash_dead"], n["crash_healthy"])
    assert (f"{hang.dead_at:g}", f"{hang.suspect_at:g}") == (n["hang_dead"], n["hang_suspect"])
    assert f"{blip.out_of_service_s:g}" == n["blip3_out"]


def test_lesson_11_cliff_passes_through_the_page_s_run():
    c, n = _data("11_spill_cliff"), _numbers("11_dashboard")
    seed = {p.inputs.live_gb: (p, m) for p, m in c.disks[c.seed.disk_mb_s]}
    predicted, measured = seed[c.seed.live_gb]
    assert f"{measured.disk_seconds:g}" == n["disk_s"] and f"{measured.read_s:g}" == n["read_s"]
    assert f"{predicted.disk_seconds:g}" == n["disk_s"], "the model line meets the measured point"
    assert f"{predicted.elapsed_s:g}" == n["wall_s"], "one disk: the readers take the disk time"
    assert f"{_figure('11_spill_cliff')['_last_fit'](c.disks[c.seed.disk_mb_s]):g}" == n["last_fit_gb"]


def test_lesson_12_bars_are_the_page_s_rows():
    t, n = _data("12_failure_table"), _numbers("12_capstone")
    rows = {r.row: r for r in t.rows}
    for row, key in (
        ("task failure", "task_lost"),
        ("node loss", "node_lost"),
        ("object spill", "spill_wall"),
        ("corrupt checkpoint", "corrupt_lost"),
        ("autoscaler delay", "scaler_lost"),
    ):
        assert f"{rows[row].lost_s:g}" == n[key], row
    assert rows["dead owner"].outcome == n["owner_outcome"]


def test_scheme_inks_reach_aa_contrast_on_their_page():
    from faultlines.figures.ink import AA_TEXT, INKS, contrast

    for ink in INKS:
        for colour in ink.text_colours():
            assert contrast(colour, ink.background) >= AA_TEXT, (ink.scheme, colour)


def test_contrast_is_wcag_s():
    from faultlines.figures.ink import contrast

    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
