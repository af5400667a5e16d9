"""Numbers and blocks for lesson 3's page: a node loss and what came back, the cliffs, and
the failure-semantics lesson's pipeline measured on miniray against the reconstruction-vs-materialization model."""

from __future__ import annotations

import functools
import inspect
import textwrap

from conformance.observations import load_recorded
from conformance.recorded_view import compare as recorded
from faultlines.models.materialize import compare
from faultlines.reading import Kind, Reading
from faultlines.stories import lineage as story
from faultlines.timeline import observe, render_text
from faultlines.widgets.lineage_calculator import STAGES, measure

# The loss story's log on the page: the node's removal and death, the rebuilds, and the attempts
# that rebuilt what it held.
LOSS_KINDS = (Kind.CLUSTER_REMOVE_NODE, Kind.NODE_DIED, Kind.TASK_RECONSTRUCT)
REBUILT = ("load#1/2", "clean#1/2")


def _runs(reading: Reading, task: str) -> int:
    return reading.count(Kind.TASK_START, task=task)


def _loss_log(reading: Reading) -> str:
    shown = {r.index for r in reading.of(*LOSS_KINDS)}
    shown |= {r.index for r in reading.records if r.fields.get("attempt") in REBUILT}
    return textwrap.dedent("\n".join(r.line() for r in reading.records if r.index in shown))


# What `ray.get` raised for `snap` and `stashed`, as each backend printed it (shown, never compared;
# tests/conformance/scenarios/lesson03_lost_objects.py).
SAID = [("errors", lambda o: o["snap"]["_said_error"] + "\n\n" + o["stashed"]["_said_error"])]


def numbers() -> dict[str, str]:
    ray_says, miniray_says = recorded("lesson03_lost_objects", [], said=SAID).said_by("errors")
    loss = observe(story.node_loss)
    after = loss.run.value
    # The same story as a plain Ray script, recorded on a real Ray 2.60 cluster (two runs agree).
    on_ray = load_recorded()["lineage_story"]
    actor = observe(story.actor_state)
    actor_none = observe(functools.partial(story.actor_state, 0, 0))
    actor_no_retry = observe(functools.partial(story.actor_state, 1, 0))
    twice = observe(story.side_effect)
    once = observe(functools.partial(story.side_effect, idempotent=True))
    stage_s, lost_at, persist_s, reload_s = 40.0, 7, 50.0, 5.0
    seed = compare(stage_s, lost_at, persist_s, reload_s, 0.1)
    likely = compare(stage_s, lost_at, persist_s, reload_s, 0.5)
    measured = measure(stage_s, lost_at, persist_s, reload_s)
    return {
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "loss_code": inspect.getsource(story.node_loss).rstrip(),
        "loss_lanes": render_text(loss.lanes, per_second=10),
        "loss_log": _loss_log(Reading.of_run(loss.run)),
        "report": after["report"],
        "summarize_runs": str(_runs(Reading.of_run(loss.run), "summarize")),
        **{f"ray_{name}": outcome for name, outcome in on_ray["after_the_loss"].items()},
        "ray_load_runs": str(on_ray["runs"]["load"]),
        "ray_summarize_runs": str(on_ray["runs"]["summarize"]),
        "cleaned": after["cleaned"],
        "rows": after["rows"],
        "snap": after["snap"],
        "stashed": after["stashed"],
        "table": after["table"],
        "load_runs": str(_runs(Reading.of_run(loss.run), "load")),
        "clean_runs": str(_runs(Reading.of_run(loss.run), "clean")),
        "count_runs": str(_runs(Reading.of_run(loss.run), "count")),
        "big_kb": f"{story.BIG / 1000:g}",
        "actor_before": str(actor.run.value[0]),
        "actor_after": str(actor.run.value[1]),
        "actor_none": str(actor_none.run.value[1]),
        "actor_no_retry": str(actor_no_retry.run.value[1]),
        "effect_rows": str(len(twice.run.value)),
        "effect_keys": ", ".join(f"`{k}`" for k in twice.run.value),
        "effect_log": textwrap.dedent("\n".join(r.line() for r in Reading.of_run(twice.run).of(Kind.EFFECT))),
        "upsert_rows": str(len(once.run.value)),
        "stages": str(STAGES),
        "stage_s": f"{stage_s:g}",
        "lost_at": str(lost_at),
        "persist_s": f"{persist_s:g}",
        "reload_s": f"{reload_s:g}",
        "recompute_s": f"{seed.recompute_s:g}",
        "saved_s": f"{seed.saved_on_loss_s:g}",
        "break_even": f"{seed.break_even_p:.2f}",
        "early_break_even": f"{compare(stage_s, 2, persist_s, reload_s, 0.1).break_even_p:.2f}",
        "p10_lineage": f"{seed.expected_lineage_s:.1f}",
        "p10_materialize": f"{seed.expected_materialize_s:.1f}",
        "p50_lineage": f"{likely.expected_lineage_s:.1f}",
        "p50_materialize": f"{likely.expected_materialize_s:.1f}",
        "measured_lineage": f"{measured['lineage']:g}",
        "measured_materialize": f"{measured['materialize']:g}",
        "clean_s": f"{STAGES * stage_s:g}",
    }
