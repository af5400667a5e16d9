"""Numbers on lesson 7's page: the detector's verdicts and the zombie story, run on miniray."""

from __future__ import annotations

import inspect

from conformance.recorded_view import compare
from faultlines.reading import Kind
from faultlines.stories import detection as det
from faultlines.stories.zombie import run_story

INTERVAL_S, THRESHOLD = 5, 3
CRASH_AT, HANG_AT, PAUSE_AT, PAUSE_S = 7.0, 2.0, 2.0, 7.0  # the page's three faults on N1


def _s(value: float) -> str:
    return f"{value:g}"


PAUSE_EXAMPLE_S = 12.0  # the pause the page reasons about and "Change one thing" moves

# Ray cannot pause a node here; the closest recorded scenario loses a node mid-task
# (tests/conformance/scenarios/lesson01_node_loss.py): Ray re-runs the task elsewhere.
RAY_ROWS = [
    (
        "a task running on a node Ray lost",
        lambda o: "ran again on another node" if o["running_there_ran_again"] else "did not run again",
    ),
    ("`ray.get` returned", lambda o: "every value, no error" if o["error"] is None else o["error"]),
]


# A node's processes killed under a running task, in Ray's own words: the GCS's log of its failed
# health checks, then NodeDiedError (tests/conformance/scenarios/lesson07_crashed_node.py).
CRASH_ROWS = [("`ray.get` raised", lambda o: f"`{o['error']}`")]
CRASH_SAID = [
    ("log", lambda o: _checks(o["_said_log"])),
    ("error", lambda o: o["_said_error"]),
    ("whole log", lambda o: o["_said_log"]),
]
FAILED_CHECK = "Health check failed for node"


def _checks(log: str) -> str:
    """The first two failed checks, the last two, and the verdict (miniray's log: all of it)."""
    lines = log.splitlines()
    failed = [line for line in lines if FAILED_CHECK in line]
    if len(failed) <= 4:
        return log
    rest = [line for line in lines if FAILED_CHECK not in line]
    return "\n".join([*failed[:2], f"... {len(failed) - 4} more failed checks ...", *failed[-2:], *rest])


def _crash_in_rays_words() -> dict[str, str]:
    view = compare("lesson07_crashed_node", CRASH_ROWS, said=CRASH_SAID)
    (ray_log, mini_log), (ray_error, mini_error) = view.said_by("log"), view.said_by("error")
    recorded = view.said_by("whole log")[0]
    return {
        "ray_says": f"{ray_log}\n\n{ray_error}",
        "miniray_says": f"{mini_log}\n\n{mini_error}",
        "ray_failed_checks": str(sum(FAILED_CHECK in line for line in recorded.splitlines())),
        "ray_refused": "Connection refused" if "Connection refused" in recorded else "no refusal",
    }


def numbers() -> dict[str, str]:
    story = inspect.signature(run_story).parameters
    out: dict[str, str] = {
        "interval": _s(INTERVAL_S),
        "threshold": str(THRESHOLD),
        "ray_table": compare("lesson01_node_loss", RAY_ROWS).table(),
        **_crash_in_rays_words(),
        "story_pause_s": _s(story["pause_s"].default),
        "story_pause_at": _s(story["pause_at"].default),
        "story_work_s": _s(story["work_s"].default),
        "story_wake": _s(story["pause_at"].default + story["pause_s"].default),
        "crash_at": _s(CRASH_AT),
        "hang_at": _s(HANG_AT),
        "pause_at": _s(PAUSE_AT),
        "pause_s": _s(PAUSE_S),
        "pause_example_s": _s(PAUSE_EXAMPLE_S),
        "verdict_work_s": _s(inspect.signature(det.run_fault).parameters["work_s"].default),
    }
    crash = det.run_fault("crash", at=CRASH_AT, interval_s=INTERVAL_S, threshold=THRESHOLD)
    hang = det.run_fault("hang", at=HANG_AT, interval_s=INTERVAL_S, threshold=THRESHOLD)
    pause = det.run_fault("pause", at=PAUSE_AT, pause_s=PAUSE_S, interval_s=INTERVAL_S, threshold=THRESHOLD)
    out["crash_dead"] = _s(crash.first(Kind.LIVENESS_DEAD))
    out["crash_rerun"] = _s(crash.starts()[-1])
    out["hang_suspect"] = _s(hang.first(Kind.LIVENESS_SUSPECT))
    out["hang_dead"] = _s(hang.first(Kind.LIVENESS_DEAD))
    out["hang_rerun"] = _s(hang.starts()[-1])
    out["hang_finish"] = _s(hang.finish)
    out["pause_suspect"] = _s(pause.first(Kind.LIVENESS_SUSPECT))
    out["pause_alive"] = _s(pause.first(Kind.LIVENESS_ALIVE))
    out["pause_attempts"] = _s(len(pause.starts()))

    none, commit, fence = run_story("none"), run_story("exclusive_commit"), run_story("fencing")
    out["story_log"] = none.log
    out["story_emails"] = str(none.notifications)
    out["story_final"] = str(none.final_value)
    out["commit_final"] = str(commit.final_value)
    out["commit_emails"] = str(commit.notifications)
    out["commit_effects"] = commit.effects.rstrip()
    out["fence_final"] = str(fence.final_value)
    out["fence_zombie"] = fence.zombie_outcome
    out["fence_effects"] = fence.effects.rstrip()

    d = det.detection(INTERVAL_S, THRESHOLD)
    out["hang_best"] = _s(d.hang_best_s)
    out["hang_worst"] = _s(d.hang_worst_s)
    out["hang_mean"] = _s(d.hang_mean_s)
    out["pause_12_pct"] = f"{100 * d.presumed_dead_probability(PAUSE_EXAMPLE_S):.0f}"
    strict = det.detection(INTERVAL_S, 1)
    out["t1_hang_worst"] = _s(strict.hang_worst_s)
    lax = det.detection(INTERVAL_S, 6)
    out["t6_hang_best"] = _s(lax.hang_best_s)
    out["t6_hang_worst"] = _s(lax.hang_worst_s)

    out["ray_period_ms"] = str(det.RAY_HEALTH_CHECK_PERIOD_MS)
    out["ray_timeout_ms"] = str(det.RAY_HEALTH_CHECK_TIMEOUT_MS)
    out["ray_threshold"] = str(det.RAY_HEALTH_CHECK_FAILURE_THRESHOLD)
    out["ray_initial_delay_ms"] = str(det.RAY_HEALTH_CHECK_INITIAL_DELAY_MS)
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
