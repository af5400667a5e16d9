"""Numbers on lesson 7's page: the detector's verdicts and the zombie story, run on miniray."""

from __future__ import annotations

import time

import miniray
from faultlines.models import detection as det
from faultlines.models.zombie import run_story
from miniray import sim
from miniray.cluster_utils import Cluster

INTERVAL_S, THRESHOLD = 5, 3


def _verdicts(fault: str) -> dict[str, float]:
    """One 20 s task on N1 and one fault; the first time of each event kind that matters."""
    sim.set_seed(0)
    config = {"liveness": {"probe_interval_s": INTERVAL_S, "unhealthy_threshold": THRESHOLD}}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
    miniray.init(address=cluster.address)
    try:
        n1 = cluster.add_node(num_cpus=1)
        cluster.add_node(num_cpus=1)

        @miniray.remote
        def work() -> str:
            time.sleep(20)
            return "done"

        ref = work.remote()
        if fault == "crash":
            sim.kill_node(n1, at=7)
        elif fault == "hang":
            sim.hang_node(n1, at=2)
        else:
            sim.pause_node(n1, 7.0, at=2)
        miniray.get(ref)
        out: dict[str, float] = {"finish": sim.now()}
        for r in sim.event_log():
            key = {"liveness.dead": "dead", "liveness.suspect": "suspect", "liveness.alive": "alive"}.get(
                r.kind
            )
            if key and key not in out:
                out[key] = r.time
            if r.kind == "task.start":
                out["attempts"] = out.get("attempts", 0) + 1
                out.setdefault("first_start", r.time)
                out["last_start"] = r.time
        return out
    finally:
        miniray.shutdown()
        cluster.shutdown()


def _s(value: float) -> str:
    return f"{value:g}"


def numbers() -> dict[str, str]:
    out: dict[str, str] = {"interval": _s(INTERVAL_S), "threshold": str(THRESHOLD)}
    crash, hang, pause = _verdicts("crash"), _verdicts("hang"), _verdicts("pause")
    out["crash_dead"] = _s(crash["dead"])
    out["crash_rerun"] = _s(crash["last_start"])
    out["hang_suspect"] = _s(hang["suspect"])
    out["hang_dead"] = _s(hang["dead"])
    out["hang_rerun"] = _s(hang["last_start"])
    out["hang_finish"] = _s(hang["finish"])
    out["pause_suspect"] = _s(pause["suspect"])
    out["pause_alive"] = _s(pause["alive"])
    out["pause_attempts"] = _s(pause["attempts"])

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
    out["pause_12_pct"] = f"{100 * d.presumed_dead_probability(12):.0f}"
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
