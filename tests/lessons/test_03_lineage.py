"""Lesson 3's course code: which objects come back after a node loss, the three cliffs, and seed
001's pipeline measured on miniray against the reconstruction-vs-materialization model."""

from __future__ import annotations

import functools

import pytest

from conformance.observations import load_recorded
from faultlines.models.materialize import compare
from faultlines.stories import lineage as story
from faultlines.timeline import observe
from faultlines.widgets.lineage_calculator import lineage_calculator, measure


def test_what_comes_back_after_the_node_dies():
    observed = observe(story.node_loss)
    assert observed.run.value == {
        "report": "came back",
        "cleaned": "came back",
        "rows": "came back",
        "snap": "ObjectReconstructionFailedError",
        "stashed": "OwnerDiedError",
        "table": "came back",
    }
    # What a real Ray 2.60 cluster answered for the same story (a recorded conformance scenario).
    assert observed.run.value == load_recorded()["lineage_story"]["after_the_loss"]
    log = observed.run.log_text
    assert "attempt=summarize#1/2" not in log  # read by the driver: its copy survived
    # Rebuilt recursively, input first, each within the producer's retry budget.
    assert log.index("task.start task=load attempt=load#1/2") < log.index(
        "task.start task=clean attempt=clean#1/2"
    )
    assert "attempt=count#1/2" not in log and "attempt=snapshot#1/2" not in log
    assert [b.label for b in observed.lanes.bars() if b.reconstruction] == ["load#1/2", "clean#1/2"]


@pytest.mark.parametrize(
    "restarts,retries,after",
    [(1, 1, 0), (0, 0, "ObjectReconstructionFailedError"), (1, 0, "ObjectReconstructionFailedError")],
)
def test_actor_output_is_rebuilt_from_fresh_state_or_not_at_all(restarts, retries, after):
    assert observe(functools.partial(story.actor_state, restarts, retries)).run.value == (3, after)


def test_reconstruction_repeats_a_side_effect_unless_it_is_keyed():
    twice = observe(story.side_effect).run.value
    once = observe(functools.partial(story.side_effect, idempotent=True)).run.value
    assert twice == {"order-17 at t=1": 100, "order-17 at t=2": 100}
    assert once == {"order-17": 100}


def test_seed_001_pipeline_measured_on_miniray():
    lineage = observe(story.pipeline)
    materialized = observe(functools.partial(story.pipeline, materialize=True))
    assert lineage.run.value == 12 * 40 + 7 * 40 == 760.0
    assert materialized.run.value == 12 * 40 + 50 + 5 == 535.0
    assert lineage.run.log_text.count("task.reconstruct") == 7
    assert "task.reconstruct" not in materialized.run.log_text


def test_reconstruction_versus_materialization_model():
    c = compare(40, 7, 50, 5, 0.1)
    assert (c.recompute_s, c.saved_on_loss_s) == (280, 275)
    assert c.break_even_p == pytest.approx(50 / 275)
    assert (c.expected_lineage_s, c.expected_materialize_s, c.choice) == (28.0, 50.5, "rely on lineage")
    assert compare(40, 7, 50, 5, 0.5).choice == "materialize"
    assert compare(10, 1, 50, 5, 0.5).break_even_p is None  # the write costs more than it saves
    with pytest.raises(ValueError):
        compare(40, 0, 50, 5, 0.1)
    with pytest.raises(ValueError):
        compare(40, 7, 50, 5, 2.0)


@pytest.mark.parametrize("stage_s,lost_at", [(40.0, 7), (10.0, 3)])
def test_measured_costs_equal_the_model(stage_s, lost_at):
    measured = measure(stage_s, lost_at, 50.0, 5.0)
    c = compare(stage_s, lost_at, 50.0, 5.0, 0.1)
    assert measured == {"lineage": c.recompute_s, "materialize": c.persist_s + c.reload_s}


def test_calculator_widget():
    widget = lineage_calculator()
    *controls, plot, table = widget.children
    stage, lost, persist, reload, p, run = controls
    assert "<td>280 s</td>" in table.value and "<td>0.18</td>" in table.value
    assert "rely on lineage" in table.value
    p.value = 0.5
    assert "<td>materialize</td>" in table.value
    lost.value = 2
    assert "<td>0.67</td>" in table.value
    run.value = True
    assert "lineage +80 s, materialize +55 s" in table.value
    assert "break-even" in plot.value
