"""Lesson 6's job, run for real in miniray under random failures, to set beside the cost model.

One run: a task computes ``work_h`` hours in segments of ``interval_h`` (virtual time: a segment
is a ``time.sleep``), writes a checkpoint after each (a sleep of the checkpoint's cost, then an
upsert into a simulated database), and on start reads the last checkpoint back. Failures kill
the task's worker at the times of a Poisson process drawn from the run's seed; Ray's retry
(``max_retries=-1``) starts the task again, about one second later, from the last checkpoint.

The measured overhead of a run is its wall time minus the work. Averaged over many seeds it
estimates ``checkpoint_interval.exact`` with the same restart delay; each seed's failure times
are shared by every interval (common random numbers), so the points differ by the interval and
not by luck.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.liveness import Services

from ..models.checkpoint_interval import exact, segments

HOUR_S = 3600.0
# Ray 2.60 retries a task about a second after its worker dies (miniray's task_retry_delay_s).
RESTART_S = 1.0


@dataclass(frozen=True)
class JobRun:
    """One simulated run of the job."""

    seed: int
    interval_h: float
    wall_h: float
    failures: int  # kills that hit the running job
    checkpoints: int  # checkpoints finished
    overhead_h: float  # wall_h minus the job's work
    log_text: str = ""  # the run's event log, kept only when asked for (keep_log=True)


@dataclass(frozen=True)
class Point:
    """The average of several runs at one interval, with its standard error."""

    interval_h: float
    runs: int
    mean_overhead_h: float
    stderr_h: float
    mean_failures: float
    model_h: float  # checkpoint_interval.exact's expected overhead for the same inputs
    seeds: tuple[int, int]  # first and last seed: replays any run


def failure_times(seed: int, rate_per_h: float, horizon_h: float) -> list[float]:
    """Arrival times (hours) of a Poisson process with rate_per_h, drawn from seed alone."""
    rng = random.Random(seed)
    times: list[float] = []
    now = 0.0
    if rate_per_h <= 0:
        return times
    while True:
        now += rng.expovariate(rate_per_h)
        if now >= horizon_h:
            return times
        times.append(now)


def _horizon_h(work_h: float, interval_h: float, rate_per_h: float, cost_h: float) -> float:
    # Far past the expected end: a run still going at the horizon would stop failing, so the
    # horizon is many expected run times (the run records whether it was reached).
    expected = work_h + exact(work_h, interval_h, rate_per_h, cost_h, RESTART_S / HOUR_S).total_h
    return 20 * expected + 10


def run_job(
    work_h: float,
    interval_h: float,
    rate_per_h: float,
    cost_h: float,
    seed: int | None,
    keep_log: bool = False,
    kills_h: list[float] | None = None,
) -> JobRun:
    """Run the job once in a fresh miniray cluster; the seed fixes its failure times, unless
    `kills_h` places them by hand (hours on the clock)."""
    parts = [s * HOUR_S for s in segments(work_h, interval_h)]
    cost_s = cost_h * HOUR_S
    horizon = _horizon_h(work_h, interval_h, rate_per_h, cost_h)
    times = kills_h if kills_h is not None else failure_times(seed or 0, rate_per_h, horizon)
    kills = [sim.Fault("kill_worker", "node:0", at=t * HOUR_S) for t in times]
    store = Services()

    def scenario() -> tuple[float, int]:
        ray.init(num_cpus=1)

        @ray.remote(max_retries=-1)
        def job() -> int:
            done = store.db.get("checkpoints", "job", 0)  # segments already saved
            for length in parts[done:]:
                time.sleep(length)  # compute one segment
                time.sleep(cost_s)  # write its checkpoint...
                done += 1
                store.db.upsert("checkpoints", "job", done)  # ...which counts once it lands
            return done

        finished = ray.get(job.remote())
        return sim.now(), finished

    run = sim.run(scenario, seed=seed or 0, faults=kills)
    if run.error is not None:
        raise RuntimeError(f"the checkpointed job failed (replay: {run.token()}): {run.error!r}")
    wall_s, finished = run.value
    if wall_s >= horizon * HOUR_S:
        raise RuntimeError(f"the run outlived its failure schedule (replay: {run.token()})")
    failures = Reading.of_run(run).count(Kind.WORKER_DIED)
    written = len(store.of(op="upsert", outcome="ok"))
    assert finished == len(parts), "the job returned before saving every segment"
    log = run.log_text if keep_log else ""
    return JobRun(seed or 0, interval_h, wall_s / HOUR_S, failures, written, wall_s / HOUR_S - work_h, log)


def clock(seconds: float) -> str:
    """Virtual seconds as h:mm:ss, the way the lesson prints its timelines."""
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def timeline(log_text: str) -> str:
    """A run's event log with hours on the clock and the empty fields dropped."""
    lines = []
    for line in log_text.splitlines():
        stamp, _, rest = line.strip().partition(" ")
        if rest.startswith((Kind.NODE_ADD, Kind.OBJECT_FREE)):
            continue  # set-up and clean-up, not part of the story
        rest = re.sub(r" at=\S+| token=(?= |$)| service=db", "", rest)
        lines.append(f"{clock(float(stamp)):>8}  {rest}")
    return "\n".join(lines)


def measure(
    work_h: float,
    interval_h: float,
    rate_per_h: float,
    cost_h: float,
    runs: int,
    first_seed: int = 0,
) -> Point:
    """Average `runs` runs (seeds first_seed, first_seed + 1, ...) at one interval."""
    done = [run_job(work_h, interval_h, rate_per_h, cost_h, first_seed + i) for i in range(runs)]
    values = [r.overhead_h for r in done]
    mean = sum(values) / runs
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (runs - 1)) if runs > 1 else 0.0
    return Point(
        interval_h=interval_h,
        runs=runs,
        mean_overhead_h=mean,
        stderr_h=spread / math.sqrt(runs),
        mean_failures=sum(r.failures for r in done) / runs,
        model_h=exact(work_h, interval_h, rate_per_h, cost_h, RESTART_S / HOUR_S).total_h,
        seeds=(first_seed, first_seed + runs - 1),
    )


def sim_intervals(work_h: float, rate_per_h: float, cost_h: float) -> list[float]:
    """Five-ish intervals around Young's optimum that divide the job exactly (work / k hours).

    Dividing the work keeps every segment the same length, the case the exact model describes.
    """
    best = math.sqrt(2 * cost_h / rate_per_h)
    counts = sorted({max(1, round(work_h / (best * m))) for m in (0.25, 0.5, 1, 2, 4)}, reverse=True)
    return [work_h / k for k in counts]


def measure_curve(
    work_h: float, rate_per_h: float, cost_h: float, runs: int, first_seed: int = 0
) -> list[Point]:
    """measure() at each of sim_intervals(), with the same seeds (failure times) at each."""
    return [
        measure(work_h, interval, rate_per_h, cost_h, runs, first_seed)
        for interval in sim_intervals(work_h, rate_per_h, cost_h)
    ]
