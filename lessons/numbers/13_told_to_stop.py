"""Numbers on lesson 13's page: the export cancelled in miniray, and Ray 2.60's record of it."""

from __future__ import annotations

import inspect

from conformance.observations import load_recorded
from conformance.recorded_view import compare
from faultlines.stories import drain_notice as drain
from faultlines.stories import told_to_stop as story
from faultlines.stories.told_to_stop import CANCEL_AT, MODES, ROW_S, ROWS, export


def _error(o: dict, name: str) -> str:
    error = o.get(f"{name}_error", o.get(f"_{name}_error"))  # the interrupted one is shown only
    return "returned normally" if error is None else f"`{error['class']}`"


def _interrupted(o: dict) -> str:
    if o["_interrupted_error"] is None:
        return "returned"
    return f"raises {_error(o, 'interrupted')}"


ROWS_ON_RAY = 40  # the scenario's export writes 40 rows (tests/conformance/scenarios/lesson13_cancel.py)


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson13_cancel.py).
RAY_ROWS = [
    ("`ray.cancel(ref, force=True)`: `ray.get` raises", lambda o: _error(o, "forced")),
    ("forced: some rows written, not all", lambda o: str(o["forced_half_done"])),
    ("forced: a row written after the cancel (a retry)", lambda o: str(not o["forced_no_row_after_cancel"])),
]
# Ray's actor cancel, recorded in the `actor_cancel` scenario.
ACTOR_ROWS = [
    (
        "a running method that never checks: `ray.get` raises",
        lambda o: f"`{o['running_ignores_flag']['error']['class']}`",
    ),
    ("it ran to its end", lambda o: str(o["running_ignores_flag_ran_to_its_end"] == 1)),
    (
        "a method that checks saw `is_canceled()` turn true",
        lambda o: str(o["running_checks_flag_saw_it"] == 1),
    ),
    ("`force=True` on an actor call", lambda o: f"`{o['force'][0]}: {o['force'][1]}`"),
]
SAID = [("forced", lambda o: o["_said_forced"])]
# A drain with a deadline, recorded in the `node_drain` scenario (issue 29's engine).
DRAIN_ROWS = [
    (
        "the task running on the drained node, past the deadline",
        lambda o: _still(o["preempted"]["alive_past_deadline"]),
    ),
    ("`ray.nodes()` shows the draining node as", lambda o: _alive(o["preempted"]["row_while_draining"])),
    (
        "the task saw its node in `get_draining_nodes()`",
        lambda o: str(o["preempted"]["job_saw_its_node_draining"]),
    ),
    ("the idle drained node, before its deadline", lambda o: _exited(o["preempted"])),
    (
        "killed at the deadline: the task's `ray.get` raises",
        lambda o: f"`{o['killed_at_deadline']['task']['error']['class']}`",
    ),
]
DRAIN_SAID = [("task", lambda o: o["killed_at_deadline"]["_said_task"])]


def _still(alive: bool) -> str:
    return "still runs" if alive else "stopped"


def _alive(row: dict) -> str:
    return "alive" if row["Alive"] else "dead"


def _exited(o: dict) -> str:
    row = o["row_after_exit"]
    return (
        f"exits by itself (DeathReason {row['DeathReason']}, {row['DeathReasonMessage']!r})"
        if o["exited_once_idle"]
        else "stays"
    )


def _ray() -> dict[str, str]:
    view = compare("lesson13_cancel", RAY_ROWS, said=SAID)
    actor = compare("actor_cancel", ACTOR_ROWS)
    ray_says, miniray_says = view.said_by("forced")
    # Not in the table, which holds rows both backends agree on: Ray 2.60 let the export that
    # `ray.cancel(ref)` cancelled run to its end (the page's "where real Ray differs" says so).
    recorded = load_recorded()["lesson13_cancel"]
    return {
        "ray_interrupted": _interrupted(recorded),
        "ray_interrupted_rows": str(recorded["_interrupted_rows"]),
        "ray_rows": str(ROWS_ON_RAY),
        "ray_table": view.table(),
        "actor_table": actor.table(),
        "ray_says": ray_says,
        "miniray_says": miniray_says,
    }


def _story() -> dict[str, str]:
    out: dict[str, str] = {
        "rows": str(ROWS),
        "row_s": f"{ROW_S:g}",
        "export_s": f"{ROWS * ROW_S:g}",
        "cancel_at": f"{CANCEL_AT:g}",
        "code": inspect.getsource(story._task).rstrip(),
        "actor_code": inspect.getsource(story._actor).rstrip(),
    }
    for mode in MODES:
        run = export(mode)
        key = mode.replace(" + ", "_").replace(" ", "_")
        out |= {
            f"{key}_raised": run.raised,
            f"{key}_rows": str(run.rows),
            f"{key}_attempts": str(run.attempts),
        }
    first = export("interrupt")
    out["timeline"] = first.timeline
    out["token"] = first.token
    out["clean_rows"] = str(export("interrupt", None).rows)
    late = export("interrupt", 5.5)
    out |= {"try_late_raised": late.raised, "try_late_rows": str(late.rows)}
    out["try_early_rows"] = str(export("actor + is_canceled", 0.0).rows)
    out["try_staged_rows"] = str(export("staged", 4.75).rows)
    return out


def _drain() -> dict[str, str]:
    view = compare("node_drain", DRAIN_ROWS, said=DRAIN_SAID)
    ray_says, miniray_says = view.said_by("task")
    out = {
        "drain_table": view.table(),
        "drain_ray_says": ray_says,
        "drain_miniray_says": miniray_says,
        "steps": str(drain.STEPS),
        "step_s": f"{drain.STEP_S:g}",
        "notice_at": f"{drain.NOTICE_AT:g}",
        "deadline_s": f"{drain.DEADLINE_S:g}",
        "taken_at": f"{drain.NOTICE_AT + drain.DEADLINE_S:g}",
        "checkpoint_every": str(drain.CHECKPOINT_EVERY),
        "notice_code": inspect.getsource(drain._step).rstrip(),
    }
    for job in drain.JOBS:
        run = drain.preemption(job)
        key = "ignores" if job.startswith("ignores") else "uses"
        out |= {
            f"{key}_finished": f"{run.finished_at:g}",
            f"{key}_lost": str(run.lost),
            f"{key}_timeline": run.timeline,
        }
    return out


def numbers() -> dict[str, str]:
    return _story() | _ray() | _drain()


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
