"""Numbers on lesson 10's page, from runs of the fleet controller model (the NeMo-RL restart
notes), and the recorded Ray scenario closest to it (an actor whose process dies)."""

from __future__ import annotations

# The fleet controller is being moved out of miniray; this is the page's one import of it.
import inspect

from conformance.recorded_view import compare
from faultlines.fleet import Fleet
from faultlines.fleet.controller import FleetConfig
from faultlines.models import fleet_health as fh
from faultlines.stories import detection


def _s(value: float | None) -> str:
    return "never" if value is None else f"{value:g}"


def _t(value: float | None) -> float:
    """A time the story needs: its run must have reached that state."""
    if value is None:
        raise ValueError("the run never reached a state the page quotes")
    return value


# The fleet's probe answers "crashed" from Ray's errors; tests/conformance/scenarios/actor_restart.py
# recorded which error Ray 2.60 raises while an actor is away and once it is gone for good.
RAY_ROWS = [
    (
        "the call that killed it, `max_restarts=1`",
        lambda o: f"`{o['no_task_retries']['dying_call']['error']['class']}`",
    ),
    (
        "the call after its second death",
        lambda o: f"`{o['no_task_retries']['second_dying_call']['error']['class']}`",
    ),
    (
        "both are a `RayActorError`",
        lambda o: (
            "yes"
            if all(
                "RayActorError" in o["no_task_retries"][k]["error"]["isa"]
                for k in ("dying_call", "second_dying_call")
            )
            else "no"
        ),
    ),
]


# The same two errors as each backend printed them (tests/conformance/scenarios/lesson10_actor_errors.py).
SAID = [("errors", lambda o: o["first_death"]["_said_error"] + "\n\n" + o["second_death"]["_said_error"])]


def _setup(crash, hang_refit) -> dict[str, str]:
    cfg, observe = FleetConfig(), inspect.signature(fh.observe).parameters
    transfer = crash.refits[0]  # the first weight transfer, for training step 1
    ray_says, miniray_says = compare("lesson10_actor_errors", [], said=SAID).said_by("errors")
    return {
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "ray_table": compare("actor_restart", RAY_ROWS).table(),
        "shards": str(cfg.shards),
        "shard": str(observe["shard"].default),
        "probe_s": _s(cfg.probe_interval_s),
        "threshold": str(cfg.unhealthy_threshold),
        "refit_timeout_s": _s(cfg.refit_timeout_s),
        "blip_s": _s(observe["blip_s"].default),
        "horizon_s": _s(fh.HORIZON),
        "refit_fault_at": _s(hang_refit.fault_at),
        "refit_start": _s(transfer.start),
        "refit_end": _s(transfer.end),
        "nccl_error_s": _s(cfg.nccl_error_s),
        "ray_period_s": _s(detection.RAY_HEALTH_CHECK_PERIOD_MS / 1000),
        "ray_timeout_s": _s(detection.RAY_HEALTH_CHECK_TIMEOUT_MS / 1000),
        "ray_threshold": str(detection.RAY_HEALTH_CHECK_FAILURE_THRESHOLD),
        "hang_worst_s": _s(cfg.unhealthy_threshold * cfg.probe_interval_s),
        "hang_best_s": _s((cfg.unhealthy_threshold - 1) * cfg.probe_interval_s),
    }


def numbers() -> dict[str, str]:
    crash = fh.observe(Fleet, fault="crash", fault_at=12.0)
    hang = fh.observe(Fleet, fault="hang", fault_at=12.0)
    hang_refit = fh.observe(Fleet, fault="hang", fault_at=124.0)
    crash_refit = fh.observe(Fleet, fault="crash", fault_at=124.0)
    bug = fh.observe(Fleet, fault="crash", fault_at=28.0, promote="all_stale")
    fix = fh.observe(Fleet, fault="crash", fault_at=28.0, promote="refitted")
    blip3 = fh.observe(Fleet, fault="blip", fault_at=12.0)
    blip1 = fh.observe(Fleet, fault="blip", fault_at=12.0, unhealthy_threshold=1)
    fast = fh.observe(Fleet, fault="hang", fault_at=12.0, probe_interval_s=1.0)
    times = [10.0 + 0.5 * i for i in range(10)]
    crash_notices = [_t(fh.observe(Fleet, fault="crash", fault_at=t).notice_s) for t in times]
    hang_notices = [_t(fh.observe(Fleet, fault="hang", fault_at=t).notice_s) for t in times]
    during_reload = [s for s in crash.refits if _t(crash.dead_at) < s.end < _t(crash.stale_at)]
    promoted_at, held, said = bug.promoted_without_weights[0]
    return _setup(crash, hang_refit) | {
        "story_log": "\n".join(fh.event_lines_of(crash, until=crash.healthy_at)),
        "crash_at": _s(crash.fault_at),
        "crash_dead": _s(crash.dead_at),
        "crash_notice": _s(crash.notice_s),
        "crash_stale": _s(crash.stale_at),
        "crash_healthy": _s(crash.healthy_at),
        "crash_out": _s(crash.out_of_service_s),
        "reload_s": _s(_t(crash.stale_at) - _t(crash.dead_at)),
        "refits_during_reload": str(len(during_reload)),
        "stale_wait": _s(_t(crash.healthy_at) - _t(crash.stale_at)),
        "crash_notice_min": _s(min(crash_notices)),
        "crash_notice_max": _s(max(crash_notices)),
        "hang_suspect": _s(hang.suspect_at),
        "hang_dead": _s(hang.dead_at),
        "hang_notice": _s(hang.notice_s),
        "hang_notice_min": _s(min(hang_notices)),
        "hang_notice_max": _s(max(hang_notices)),
        "hang_timeouts": str(hang.rollouts.get("timeout", 0)),
        "fast_hang_notice": _s(fast.notice_s),
        "hang_refit_wait": _s(hang_refit.longest_refit_s),
        "crash_refit_wait": _s(crash_refit.longest_refit_s),
        "hang_refit_dead": _s(hang_refit.dead_at),
        "clean_refit": _s(crash.longest_refit_s),
        "bug_crash_at": _s(bug.fault_at),
        "bug_stale": _s(bug.stale_at),
        "bug_promoted": _s(promoted_at),
        "bug_held": str(held),
        "bug_said": str(said),
        "bug_old_rollouts": str(bug.stale_weight_rollouts),
        "fix_healthy": _s(fix.healthy_at),
        "fix_old_rollouts": str(fix.stale_weight_rollouts),
        "fix_extra_wait": _s(_t(fix.healthy_at) - _t(bug.healthy_at)),
        "blip3_out": _s(blip3.out_of_service_s),
        "blip1_out": _s(blip1.out_of_service_s),
    }


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
