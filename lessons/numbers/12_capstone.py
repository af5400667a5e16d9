"""Numbers on lesson 12's page: each failure row run on miniray, and the decisions before and
after the failure rate goes from 2 %/h to 20 %/h."""

from __future__ import annotations

import textwrap

from conformance.recorded_view import compare
from faultlines.models import failure_table as ft
from faultlines.stories import capstone_runs as runs

# The opening story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson12_trainer_dies.py).
RAY_ROWS = [
    (
        "`max_restarts=0`: the call in step 13",
        lambda o: (
            f"`{o['max_restarts_0']['error']['class']}`" if o["max_restarts_0"]["error"] else "returned"
        ),
    ),
    ("and every later call", lambda o: f"`{o['max_restarts_0']['later_call_error']}`"),
    ("the job's last finished step", lambda o: str(o["max_restarts_0"]["last_step"])),
    (
        "`max_restarts=2`: restored from step",
        lambda o: str(o["max_restarts_2"]["restored_from_step"]),
    ),
    (
        "final weights, against an undisturbed run",
        lambda o: (
            "the same"
            if o["max_restarts_2"]["weights"] == o["max_restarts_2"]["expected_weights"]
            else "different"
        ),
    ),
]


# The error of the story's call, as each backend printed it (shown, never compared).
SAID = [("error", lambda o: o["max_restarts_0"]["_said_error"])]


def _trainer_in_rays_words() -> dict[str, str]:
    view = compare("lesson12_trainer_dies", RAY_ROWS, said=SAID)
    ray_says, miniray_says = view.said_by("error")
    return {"ray_table": view.table(), "ray_says": ray_says, "miniray_says": miniray_says}


def numbers() -> dict[str, str]:
    task = runs.row_task_failure()
    actor0 = runs.row_actor_death(max_restarts=0)
    actor = runs.row_actor_death(max_restarts=2)
    node = runs.row_node_loss()
    spilled = runs.row_spill()
    owner = runs.row_dead_owner()
    corrupt = runs.row_corrupt_checkpoint(verify=True)
    unverified = runs.train(corrupt=10, verify=False)
    scaler = runs.row_autoscaler_delay(300)
    clean_train = runs.train(kill_at=None)
    lo, hi = ft.Assumptions(failure_rate_per_h=0.02), ft.Assumptions(failure_rate_per_h=0.20)
    d_lo, d_hi = ft.decide(lo), ft.decide(hi)
    flipped = ft.flip(lo, failure_rate_per_h=0.20)
    changed = [b.row for b, _, c in flipped if c]

    def choice(decisions: list[ft.Decision], row: str) -> str:
        return next(d.choice for d in decisions if d.row == row)

    dies = runs.train(max_restarts=0)
    return {
        **_trainer_in_rays_words(),
        "story_log": textwrap.dedent("\n".join(dies["log"])),
        "story_step": str(dies["step"]),
        "story_error": str(dies["error"]),
        "death_at": f"{runs.DEATH_AT:g}",
        "stages": ", ".join(f"`{name}` {seconds:g} s" for name, seconds in runs.STAGES),
        "job_h": f"{lo.job_h:g}",
        "checkpoint_s": f"{lo.checkpoint_s:g}",
        "materialize_s": f"{lo.materialize_s:g}",
        "reload_s": f"{lo.reload_s:g}",
        "recompute_saved_s": f"{lo.recompute_s - lo.reload_s:g}",
        "boot_s": f"{lo.autoscaler_delay_s:g}",
        "death_step": str(int(runs.DEATH_AT // runs.STEP_S) + 1),
        "step_s": f"{runs.STEP_S:g}",
        "rate_lo_pct": f"{100 * lo.failure_rate_per_h:g}",
        "rate_hi_pct": f"{100 * hi.failure_rate_per_h:g}",
        "task_lost": f"{task.lost_s:g}",
        "actor0_outcome": actor0.outcome,
        "actor_lost": f"{actor.lost_s:g}",
        "actor_clean": f"{clean_train['end']:g}",
        "node_lost": f"{node.lost_s:g}",
        "spill_wall": f"{spilled.lost_s:g}",
        "owner_outcome": owner.outcome,
        "corrupt_lost": f"{corrupt.lost_s:g}",
        "corrupt_reads": corrupt.detail.removeprefix("reads: "),
        "unverified_weights": str(unverified["weights"]),
        "expected_weights": str(runs.EXPECTED_WEIGHTS),
        "scaler_lost": f"{scaler.lost_s:g}",
        "steps": str(runs.STEPS),
        "every": str(runs.EVERY),
        "restarts_lo": choice(d_lo, "actor death").split(",")[0],
        "restarts_hi": choice(d_hi, "actor death").split(",")[0],
        "interval_lo": choice(d_lo, "checkpoint interval"),
        "interval_hi": choice(d_hi, "checkpoint interval"),
        "node_lo": choice(d_lo, "node loss"),
        "node_hi": choice(d_hi, "node loss"),
        "spare_lo": choice(d_lo, "autoscaler delay"),
        "spare_hi": choice(d_hi, "autoscaler delay"),
        "fails_lo": f"{lo.expected_failures:g}",
        "fails_hi": f"{hi.expected_failures:g}",
        "saved_lo": f"{lo.expected_failures * (lo.recompute_s - lo.reload_s):.0f}",
        "saved_hi": f"{hi.expected_failures * (hi.recompute_s - hi.reload_s):.0f}",
        "changed_count": str(len(changed)),
        "rows": str(len(flipped)),
        "changed_rows": ", ".join(changed),
        "decisions_lo": "\n".join(f"{d.row:<20} {d.choice}" for d in d_lo),
        "decisions_hi": "\n".join(
            f"{'CHANGED ' if c else '        '}{a.row:<20} {a.choice}" for _, a, c in flipped
        ),
    }


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
