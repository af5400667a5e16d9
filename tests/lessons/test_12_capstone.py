"""Lesson 12: each failure row measured on miniray, the course models it needs, and the decisions
that move when the failure rate does."""

from __future__ import annotations

import math
import runpy
from pathlib import Path

import pytest

from faultlines.models import failure_table as ft
from faultlines.models.checkpoints import CheckpointStore
from faultlines.stories import capstone_runs as runs
from faultlines.widgets import failure_table as ftw


def test_task_failure_is_retried_and_costs_the_lost_attempt_plus_the_retry_delay():
    row = runs.row_task_failure()
    assert row.correct and row.outcome == "result returned" and row.lost_s == 26.0
    assert any("task.fail" in line and "retry=True" in line for line in row.log)


def test_actor_death_fails_the_job_by_default_and_restores_the_checkpoint_with_restarts():
    dead = runs.row_actor_death(max_restarts=0)
    assert dead.outcome == "ActorDiedError" and math.isinf(dead.lost_s) and not dead.correct
    restarted = runs.row_actor_death(max_restarts=2)
    assert restarted.correct and restarted.lost_s == 26.0  # steps 11-12 again, 5 s of 13, 1 s restart
    assert "restored step 10" in restarted.detail


def test_node_loss_reconstructs_the_whole_chain():
    row = runs.row_node_loss()
    assert row.correct and row.lost_s == 120.0  # 20 + 40 + 60 s of stages, run again
    rebuilt = [line.split("task=")[1].split()[0] for line in row.log if "task.reconstruct" in line]
    assert rebuilt == ["featurize", "clean", "load"]


def test_dead_owner_is_final():
    row = runs.row_dead_owner()
    assert row.outcome == "OwnerDiedError" and not row.correct


def test_corrupt_checkpoint_verified_falls_back_and_unverified_is_silently_wrong():
    verified = runs.row_corrupt_checkpoint(verify=True)
    assert verified.correct and verified.lost_s == 76.0  # back to step 5: steps 6-12 again
    assert verified.detail == "reads: step 10: checksum mismatch: skipped; step 5: loaded"
    unverified = runs.row_corrupt_checkpoint(verify=False)
    assert not unverified.correct and "no error" in unverified.outcome and unverified.lost_s == 26.0


def test_autoscaler_replacement_joins_after_the_delay():
    assert runs.row_autoscaler_delay(300).lost_s == 330.0
    assert runs.row_autoscaler_delay(0).lost_s == 31.0
    done, log = runs.gpu_job(120.0)
    assert done == 30 + 120 + 60 and any("node.add" in line and "150.0 s" in line for line in log)


def test_checkpoint_store_saves_once_per_step_and_reports_bad_input():
    store = CheckpointStore.create("t")
    store.save(5, {"step": 5, "weights": 15})
    store.save(5, {"step": 5, "weights": 999})  # a repeated save is a no-op
    assert store.load_latest() == {"step": 5, "weights": 15}
    with pytest.raises(KeyError, match="no checkpoint at step 7"):
        store.corrupt(7)
    with pytest.raises(KeyError, match="no checkpoint store named 'nope'"):
        CheckpointStore.named("nope")


def test_young_interval_and_restart_budget():
    lo, hi = ft.Assumptions(failure_rate_per_h=0.02), ft.Assumptions(failure_rate_per_h=0.2)
    assert round(ft.young_interval_h(lo), 3) == 0.913 and round(ft.young_interval_h(hi), 3) == 0.289
    assert ft.restarts_needed(0.2) == 2 and ft.restarts_needed(2.0) == 6
    assert ft.poisson_tail(2.0, 6) < 0.01 <= ft.poisson_tail(2.0, 5)


def test_flipping_the_failure_rate_moves_three_decisions():
    flipped = ft.flip(ft.Assumptions(), failure_rate_per_h=0.2)
    assert ftw.changed_rows(flipped) == ["actor death", "checkpoint interval", "node loss"]
    assert ftw.changed_rows(ft.flip(ft.Assumptions(), checkpoint_s=300)) == ["checkpoint interval"]
    spare = ft.flip(ft.Assumptions(), nodes=256, autoscaler_delay_s=3600)
    assert ftw.changed_rows(spare) == ["autoscaler delay"]
    with pytest.raises(ValueError, match="must be > 0"):
        ft.decide(ft.Assumptions(failure_rate_per_h=0))


def test_widget_counts_the_changed_decisions():
    pytest.importorskip("ipywidgets")
    widget = ftw.FailureTableWidget(runs.all_rows())
    assert widget.summary.value.startswith("0 of 8 decisions changed")
    widget.rate.value = 0.2
    assert "3 of 8 decisions changed: actor death, checkpoint interval, node loss" in widget.summary.value
    assert widget.table.value.count("CHANGED") == 3 and "job fails" in widget.table.value


def test_page_numbers_come_from_these_runs():
    module = runpy.run_path(str(Path(__file__).parents[2] / "lessons/numbers/12_capstone.py"))
    values = module["numbers"]()
    assert (values["task_lost"], values["node_lost"], values["scaler_lost"]) == ("26", "120", "330")
    assert (values["restarts_lo"], values["restarts_hi"]) == ("max_restarts=2", "max_restarts=6")
    assert (values["interval_lo"], values["interval_hi"]) == ("every 55 min", "every 17 min")
    assert values["unverified_weights"] != values["expected_weights"] == "210"


def test_chart_rules_do_not_overprint_their_labels():
    base = ft.Assumptions()
    assert [r.label for r in ftw.rules_for(base, base)] == ["baseline"]
    near = ftw.rules_for(base, ft.Assumptions(failure_rate_per_h=0.03))
    assert [r.label for r in near] == ["", "baseline | yours"]
    far = ftw.rules_for(base, ft.Assumptions(failure_rate_per_h=0.2))
    assert [(r.x, r.label) for r in far] == [(2.0, "baseline"), (20.0, "yours")]
