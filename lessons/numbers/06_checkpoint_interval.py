"""Numbers on lesson 6's page: the worked examples, the optima, runs in miniray, and the recorded
Ray scenario closest to the story (a task retried after its worker died)."""

from __future__ import annotations

from conformance.recorded_view import compare
from faultlines.models import checkpoint_interval as model
from faultlines.stories import checkpoint_sim as sim

WORK_H = 10.0
COST_S = 30.0
COST_H = COST_S / 3600
RATE = 0.02  # failures per hour: seed 001's first example
HIGH_RATE = 0.20  # ... and its "flip one assumption" example
STORY_SEED = 28  # a run whose only failure lands late in an interval
STEP1_KILL_H = 5.99  # the lab's hand-placed kill
MEASURE_RUNS = 500  # per point; the figure checkpoint_measured uses the same runs


def _h(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


def _min(hours: float) -> str:
    return f"{60 * hours:.0f}"


def _story() -> dict[str, str]:
    run = sim.run_job(WORK_H, 1.0, RATE, COST_H, STORY_SEED, keep_log=True)
    [kill_h] = [t for t in sim.failure_times(STORY_SEED, RATE, run.wall_h) if t < run.wall_h]
    segment_h = 1.0 + COST_H
    saved = int(kill_h // segment_h)  # checkpoints finished before the kill
    lost_h = kill_h - saved * segment_h
    return {
        "story_timeline": sim.timeline(run.log_text),
        "story_seed": str(STORY_SEED),
        "story_kill": sim.clock(kill_h * 3600),
        "story_saved": str(saved),
        "story_lost_min": _min(lost_h),
        "story_wall": sim.clock(run.wall_h * 3600),
        "story_overhead_h": _h(run.overhead_h),
        "story_io_h": _h(run.checkpoints * COST_H, 3),
    }


def _examples() -> dict[str, str]:
    out: dict[str, str] = {}
    for name, interval in (("1h", 1.0), ("6min", 0.1)):
        first = model.first_order(WORK_H, interval, RATE, COST_H)
        exact = model.exact(WORK_H, interval, RATE, COST_H)
        out |= {
            f"fo_{name}_ckpts": f"{first.checkpoints:.0f}",
            f"fo_{name}_io_s": f"{first.io_h * 3600:.0f}",
            f"fo_{name}_io_h": _h(first.io_h, 3),
            f"fo_{name}_redo_h": _h(first.lost_h, 3),
            f"fo_{name}_total_h": _h(first.total_h),
            f"ex_{name}_total_h": _h(exact.total_h, 3),
        }
    for name, rate in (("low", RATE), ("high", HIGH_RATE)):
        young = model.young_interval(rate, COST_H)
        best = model.exact_interval(rate, COST_H)
        daly = model.daly_interval(rate, COST_H)
        at_hour = model.exact(WORK_H, 1.0, rate, COST_H)
        out |= {
            f"{name}_young_h": _h(young),
            f"{name}_young_min": _min(young),
            f"{name}_exact_h": _h(best, 3),
            f"{name}_exact_min": f"{60 * best:.1f}",
            f"{name}_young_exact_h": _h(young, 3),
            f"{name}_daly_h": _h(daly, 3),
            f"{name}_gap_pct": f"{100 * (young - best) / best:.1f}",
            f"{name}_cost_young_h": _h(model.exact(WORK_H, young, rate, COST_H).total_h, 4),
            f"{name}_cost_exact_h": _h(model.exact(WORK_H, best, rate, COST_H).total_h, 4),
            f"{name}_failures_per_run": f"{rate * WORK_H:g}",
            f"{name}_fo_1h_total_h": _h(model.first_order(WORK_H, 1.0, rate, COST_H).total_h),
            f"{name}_ex_1h_total_h": _h(at_hour.total_h),
            f"{name}_mtbf_h": f"{1 / rate:.0f}",
        }
    ratio = (
        model.exact(WORK_H, 1.0, HIGH_RATE, COST_H).total_h
        / model.exact(WORK_H, model.exact_interval(HIGH_RATE, COST_H), HIGH_RATE, COST_H).total_h
    )
    out["high_1h_ratio"] = f"{ratio:.1f}"
    for name, rate in (("low", RATE), ("high", HIGH_RATE)):
        best = model.exact(WORK_H, model.exact_interval(rate, COST_H), rate, COST_H).total_h
        out[f"{name}_best_pct"] = f"{100 * best / WORK_H:.1f}"
    out["low_1h_extra_h"] = _h(
        model.exact(WORK_H, 1.0, RATE, COST_H).total_h
        - model.exact(WORK_H, model.exact_interval(RATE, COST_H), RATE, COST_H).total_h,
        3,
    )
    out["try_cost_s"] = "300"
    out["try_cost_young_h"] = _h(model.young_interval(RATE, 300 / 3600), 1)
    # The lab's Step 1 kills the job by hand at this time (lessons/06_checkpoint_interval.py).
    step1_lost = STEP1_KILL_H - 5 * (1 + COST_H)
    out["step1_kill_h"] = f"{STEP1_KILL_H:g}"
    out["step1_lost_min"] = _min(step1_lost)
    return out


def _measured() -> dict[str, str]:
    points = sim.measure_curve(WORK_H, RATE, COST_H, runs=MEASURE_RUNS)
    rows = [
        f"{'interval':>9}  {'runs':>4}  {'failures/run':>12}  {'measured (h)':>15}  {'exact model (h)':>15}"
    ]
    inside = 0
    for p in points:
        rows.append(
            f"{p.interval_h:>7.3f} h  {p.runs:>4}  {p.mean_failures:>12.3f}  "
            f"{p.mean_overhead_h:>7.3f} ± {2 * p.stderr_h:.3f}  {p.model_h:>15.3f}"
        )
        inside += abs(p.mean_overhead_h - p.model_h) <= 2 * p.stderr_h
    return {
        "measured_table": "\n".join(rows),
        "measured_runs": str(MEASURE_RUNS),
        "measured_points": str(len(points)),
        "measured_inside": str(inside),
        "measured_seeds": f"{points[0].seeds[0]} to {points[0].seeds[1]}",
    }


# Ray cannot run ten virtual hours with random kills here; its half of the story (a task whose
# worker died runs again, about a second later) is tests/conformance/scenarios/task_worker_death.py.
RAY_ROWS = [
    (
        "a task whose worker dies on every attempt, default options",
        lambda o: f"{o['default']['runs']} runs, then `{o['default']['result']['error']['class']}`",
    ),
    ("the same with `max_retries=2`", lambda o: f"{o['max_retries_2']['runs']} runs"),
    (
        "time between attempts",
        lambda o: "about a second" if o["default"]["attempts_about_1s_apart"] else "other",
    ),
]


# The job's retry on both backends: `max_retries=-1`, killed after saving step 4, resumed there
# (tests/conformance/scenarios/lesson06_retried_job.py); the driver's lines are shown, not compared.
RETRIED_ROWS = [("the retry resumed from step", lambda o: ", ".join(str(s) for s in o["resumed_from"]))]
RETRIED_SAID = [("log", lambda o: o["_said_log"])]


def _inputs() -> dict[str, str]:
    step1 = sim.run_job(WORK_H, 1.0, RATE, COST_H, None, keep_log=False, kills_h=[STEP1_KILL_H])
    retried = compare("lesson06_retried_job", RETRIED_ROWS, said=RETRIED_SAID)
    ray_says, miniray_says = retried.said_by("log")
    return {
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "ray_resumed_from": retried.ray("the retry resumed from step"),
        "ray_table": compare("task_worker_death", RAY_ROWS).table(),
        "work_h": f"{WORK_H:g}",
        "cost_s": f"{COST_S:g}",
        "rate": f"{RATE:g}",
        "high_rate": f"{HIGH_RATE:g}",
        "rate_pct": f"{100 * RATE:g}",
        "high_rate_pct": f"{100 * HIGH_RATE:g}",
        "rate_ratio": f"{HIGH_RATE / RATE:g}",
        "sqrt_ratio": f"{(HIGH_RATE / RATE) ** 0.5:.1f}",
        "step1_wall": sim.clock(step1.wall_h * 3600),
        "step1_saved": str(int(STEP1_KILL_H // (1 + COST_H))),
    }


def numbers() -> dict[str, str]:
    return _story() | _examples() | _measured() | _inputs()


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
