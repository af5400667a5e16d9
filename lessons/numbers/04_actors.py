"""Numbers on lesson 4's page: the counter's runs in miniray, and what real Ray 2.60 recorded."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from conformance.recorded_view import compare
from faultlines.stories import worker_memory
from faultlines.stories.actor_lives import DIED, UNAVAILABLE, run_counter, timeline
from miniray import sim

# The conformance suite's recording of real Ray 2.60 running the same kinds of actor scenarios.
RECORDED = Path(__file__).resolve().parents[2] / "tests/conformance/recorded/ray-2.60.0.json"

STORY = {"calls": 20, "crash_every": 7, "max_restarts": 2, "max_task_retries": -1}
CHECKPOINT_EVERY = 5


def _doc_example() -> dict[str, str]:
    retried = run_counter()  # Ray's doc example: max_restarts=4, max_task_retries=-1, exit after 10
    plain = run_counter(max_task_retries=0)
    return {
        "doc_lines": retried.lines(),
        "doc_answered": str(len(retried.values)),
        "doc_lives": str(retried.lives),
        "doc_restarts": str(retried.lives - 1),
        "doc_died": str(retried.count(DIED)),
        "doc_executions": str(retried.executions),
        "doc_naive": str(4 * 10),
        "plain_lines": plain.lines(),
        "plain_answered": str(len(plain.values)),
        "plain_unavailable": str(plain.count(UNAVAILABLE)),
        "plain_died": str(plain.count(DIED)),
    }


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson04_counter_forgets.py).
RAY_ROWS = [
    ("what the calls returned", lambda o: " ".join(str(v) for v in o["returned"])),
    ("errors the caller saw", lambda o: str(o["errors"])),
    ("times `__init__` ran", lambda o: str(o["init_runs"])),
    ("the count at the end", lambda o: str(o["final_count"])),
]


def _story() -> dict[str, str]:
    ray = compare("lesson04_counter_forgets", RAY_ROWS)
    lost = run_counter(**STORY)
    saved = run_counter(**STORY, checkpoint_every=CHECKPOINT_EVERY)
    return {
        "ray_table": ray.table(),
        "calls": str(STORY["calls"]),
        "crash_every": str(STORY["crash_every"]),
        "max_restarts": str(STORY["max_restarts"]),
        "story_lines": lost.lines(),
        "story_timeline": timeline(lost.log_text),
        "story_answered": str(len(lost.values)),
        "story_final": str(lost.final),
        "story_forgotten": str(lost.forgotten),
        "story_errors": str(len(lost.outcomes) - len(lost.values)),
        "ckpt_every": str(CHECKPOINT_EVERY),
        "ckpt_lines": saved.lines(),
        "ckpt_final": str(saved.final),
        "ckpt_forgotten": str(saved.forgotten),
        "ckpt_written": str(saved.checkpoints),
        "ckpt_timeline": timeline(saved.log_text),
    }


def _miniray_lives() -> list:
    """The conformance scenario's 55 calls, as miniray answers them (value or error class)."""
    return [o.value if o.error is None else o.error for o in run_counter(calls=55).outcomes]


def _error(observation: dict) -> str:
    return observation["error"]["class"]


def _recorded() -> dict[str, str]:
    data = json.loads(RECORDED.read_text())
    restart = data["scenarios"]["actor_restart"]
    death = data["scenarios"]["actor_death"]
    plain, retried = restart["no_task_retries"], restart["max_task_retries_1"]
    lives = data["scenarios"]["actor_restart_lives"]
    queued = sorted({_error(o) for o in plain["queued_calls"]})
    return {
        "ray_version": data["ray"],
        "ray_defaults_dying": _error(death["process_dies_defaults"]["dying_call"]),
        "ray_defaults_later": _error(death["process_dies_defaults"]["later_call"]),
        "ray_defaults_states": " → ".join(death["process_dies_defaults"]["states"]),
        "ray_plain_dying": _error(plain["dying_call"]),
        "ray_plain_queued": ", ".join(queued),
        "ray_plain_after_restart": str(plain["call_after_restart"]["value"]),
        "ray_plain_second_death": _error(plain["second_dying_call"]),
        "ray_plain_states": " → ".join(plain["states"]),
        "ray_retry_dying": str(retried["dying_call"]["value"]),
        "ray_retry_runs": str(retried["dying_method_runs"]),
        "ray_retry_inits": str(retried["init_runs"]),
        "ray_raises_class": _error(death["method_raises"]["failing_call"]),
        "ray_raises_next": str(death["method_raises"]["next_call"]["value"]),
        "ray_raises_state": death["method_raises"]["state_after"],
        "ray_lives_answered": str(lives["max_task_retries_minus1"]["answered"]),
        "ray_lives_inits": str(lives["max_task_retries_minus1"]["init_runs"]),
        "ray_lives_calls": str(len(lives["max_task_retries_minus1"]["outcomes"])),
        "ray_lives_died": str(lives["max_task_retries_minus1"]["outcomes"].count(DIED)),
        "ray_lives_matches": "the same"
        if lives["max_task_retries_minus1"]["outcomes"] == _miniray_lives()
        else "different",
        "ray0_answered": str(lives["_max_task_retries_0"]["answered"]),
        "ray0_unavailable": str(lives["_max_task_retries_0"]["unavailable"]),
        "ray_minus1_order": ", ".join(
            str(o["value"]) for o in restart["max_task_retries_minus1"]["_queued_calls_in_order"]
        ),
    }


def _try_this() -> dict[str, str]:
    """The widget settings the page's "Try this" list suggests, run as the widget runs them."""
    out: dict[str, str] = {}
    settings = {
        "no_retries": {"max_task_retries": 0},
        "every5": {"checkpoint_every": 5},
        "every5_exit7": {"checkpoint_every": 5, "crash_every": 7},
        "every10_exit9": {"checkpoint_every": 10, "crash_every": 9},
        "no_restarts": {"max_restarts": 0},
    }
    for name, options in settings.items():
        run = run_counter(**options)
        out |= {
            f"try_{name}_answered": str(len(run.values)),
            f"try_{name}_unavailable": str(run.count(UNAVAILABLE)),
            f"try_{name}_died": str(run.count(DIED)),
            f"try_{name}_final": str(run.final),
            f"try_{name}_forgotten": str(run.forgotten),
        }
    return out


def _worker_memory() -> dict[str, str]:
    """The worker-memory story in miniray, beside real Ray 2.60's recording of the same cases."""
    tasks = sim.run(worker_memory.global_list).value
    closure = sim.run(worker_memory.closure_counter).value
    recorded = json.loads(RECORDED.read_text())["scenarios"]["worker_memory"]
    on_ray = recorded["global_in_task"]
    ray_closure = recorded["closure_across_restart"]
    return {
        "mem_code": inspect.getsource(worker_memory.global_list).rstrip(),
        "mem_tasks_saw": ", ".join(map(str, tasks["tasks_saw"])),
        "mem_driver_sees": repr(tasks["driver_sees"]),
        "mem_ray_tasks_saw": ", ".join(str(seen) for seen, _ in on_ray["_views_by_process"][0]),
        "mem_ray_driver_sees": repr(on_ray["driver_list_after"]),
        "mem_closure_before": ", ".join(map(str, closure["before"])),
        "mem_closure_after": str(closure["after_restart"]),
        "mem_closure_driver": str(closure["driver_sees"]),
        "mem_ray_closure_before": ", ".join(map(str, ray_closure["before"])),
        "mem_ray_closure_after": str(ray_closure["after_restart"]["value"]),
        "mem_ray_closure_driver": str(ray_closure["driver_closure"]),
    }


# A method that raises, on an actor with max_task_retries=2: retried only with retry_exceptions
# (tests/conformance/scenarios/lesson04_method_retries.py).
METHOD_ROWS = [
    ("runs, default", lambda o: str(o["default"]["runs"])),
    ("runs, `retry_exceptions=True`", lambda o: str(o["retry_exceptions_true"]["runs"])),
    ("then raised", lambda o: f"`{o['retry_exceptions_true']['error']}`"),
]
METHOD_SAID = [
    ("retry", lambda o: o["retry_exceptions_true"]["_said_retries"]),
    ("error", lambda o: o["retry_exceptions_true"]["_said_error"]),
]


def _method_retries() -> dict[str, str]:
    view = compare("lesson04_method_retries", METHOD_ROWS, said=METHOD_SAID)
    (ray_retry, mini_retry), (ray_error, mini_error) = view.said_by("retry"), view.said_by("error")
    return {
        "method_runs_default": view.ray("runs, default"),
        "method_runs_retried": view.ray("runs, `retry_exceptions=True`"),
        "method_retries": str(int(view.ray("runs, `retry_exceptions=True`")) - 1),
        "ray_says": f"{ray_retry}\n\n{ray_error}",
        "miniray_says": f"{mini_retry}\n\n{mini_error}",
    }


def numbers() -> dict[str, str]:
    return _doc_example() | _story() | _recorded() | _try_this() | _worker_memory() | _method_retries()


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
