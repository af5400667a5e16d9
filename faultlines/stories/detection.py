"""How long a probe-based failure detector takes, and how often it calls a slow node dead (lesson 7).

The detector is miniray's (`miniray.liveness.Detector`): a probe every `interval_s` on a fixed
grid; a crashed node is DEAD at the next probe (the detector's shortcut: Ray counts a crash's
failed checks toward its threshold like a hang's, lesson 7 shows Ray's log of it); a frozen
node fails each probe it cannot answer and is DEAD after `threshold` failures in a row.

For a fault that starts at a uniformly random moment between two probes:

- a crash is declared within one interval: (0, p], p/2 on average;
- a hang is declared at the threshold-th probe after it starts: ((k-1)p, kp], (k - 1/2)p on average;
- a pause of d seconds fails floor(d/p) or floor(d/p) + 1 probes, so it is presumed dead with
  probability clamp((d - (k-1)p) / p, 0, 1): never below (k-1)p, always from kp.

`run_fault` runs the real detector under one fault (the page's verdicts come from it), and
`simulate_pause` reads one pause's outcome, so tests check the formulas against it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.cluster_utils import Cluster

# Ray 2.60's GCS health-check defaults, read from ray._raylet.Config on the course's build machine.
RAY_HEALTH_CHECK_PERIOD_MS = 3000
RAY_HEALTH_CHECK_TIMEOUT_MS = 10000
RAY_HEALTH_CHECK_FAILURE_THRESHOLD = 5
RAY_HEALTH_CHECK_INITIAL_DELAY_MS = 5000


def _check(interval_s: float, threshold: int) -> None:
    if not interval_s > 0:
        raise ValueError(f"the probe interval must be > 0 seconds, got {interval_s!r}")
    if int(threshold) != threshold or threshold < 1:
        raise ValueError(f"the threshold must be a whole number >= 1, got {threshold!r}")


@dataclass(frozen=True)
class Detection:
    """Detection times (seconds after the fault starts) for one probe interval and threshold."""

    interval_s: float
    threshold: int

    @property
    def crash_worst_s(self) -> float:
        return self.interval_s

    @property
    def crash_mean_s(self) -> float:
        return self.interval_s / 2

    @property
    def hang_best_s(self) -> float:
        return (self.threshold - 1) * self.interval_s

    @property
    def hang_worst_s(self) -> float:
        return self.threshold * self.interval_s

    @property
    def hang_mean_s(self) -> float:
        return (self.threshold - 0.5) * self.interval_s

    def presumed_dead_probability(self, pause_s: float) -> float:
        """Chance that a pause of `pause_s` seconds, starting at a random moment, is declared dead."""
        if pause_s < 0:
            raise ValueError(f"a pause lasts >= 0 seconds, got {pause_s!r}")
        return min(1.0, max(0.0, (pause_s - self.hang_best_s) / self.interval_s))


def detection(interval_s: float, threshold: int) -> Detection:
    _check(interval_s, threshold)
    return Detection(float(interval_s), int(threshold))


@dataclass(frozen=True)
class FaultRun:
    """One task of `work_s` seconds on N1 while N1 suffers one fault: what the detector did."""

    finish: float  # when ray.get returned
    log: list  # the run's records (sim.event_log())
    node: str  # N1's name in the log

    def first(self, kind: Kind) -> float | None:
        """Virtual time of the first `kind` record about N1 (a liveness verdict: Kind.LIVENESS_DEAD)."""
        found = Reading(self.log).first(kind, node=self.node)
        return found.time if found is not None else None

    def starts(self) -> list[float]:
        return [r.time for r in Reading(self.log).of(Kind.TASK_START)]


def detector_cluster(interval_s: float, threshold: int) -> Cluster:
    """A fresh cluster (head without CPUs, seed 0) with the failure detector probing every
    `interval_s` and declaring a node dead after `threshold` missed probes; the driver joined."""
    miniray.shutdown()  # a lab may still have its own cluster up: this run starts afresh
    sim.set_seed(0)
    config = {"liveness": {"probe_interval_s": interval_s, "unhealthy_threshold": threshold}}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
    miniray.init(address=cluster.address)
    return cluster


def run_fault(
    fault: str,
    at: float,
    pause_s: float = 0.0,
    interval_s: float = 5.0,
    threshold: int = 3,
    work_s: float = 20.0,
    linger: bool = False,
) -> FaultRun:
    """Run one task on N1 of a two-worker cluster and crash, hang or pause N1 at `at`.

    `linger` keeps the clock going after `ray.get` until a paused node's zombie attempt has had
    time to finish, so its end is in the log too."""
    _check(interval_s, threshold)
    if fault not in ("crash", "hang", "pause"):
        raise ValueError(f"fault is 'crash', 'hang' or 'pause', got {fault!r}")
    cluster = detector_cluster(interval_s, threshold)
    try:
        n1 = cluster.add_node(num_cpus=1)
        cluster.add_node(num_cpus=1)

        @miniray.remote
        def work() -> str:
            time.sleep(work_s)
            return "done"

        ref = work.remote()
        if fault == "crash":
            sim.kill_node(n1, at=at)
        elif fault == "hang":
            sim.hang_node(n1, at=at)
        else:
            sim.pause_node(n1, pause_s, at=at)
        miniray.get(ref)
        finish = sim.now()
        if linger:
            sim.sleep(max(0.0, at + pause_s + work_s - sim.now()) + 1.0)
        return FaultRun(finish, list(sim.event_log()), n1.name)
    finally:
        miniray.shutdown()
        cluster.shutdown()


@dataclass(frozen=True)
class PauseOutcome:
    """What the real detector did with one paused node."""

    presumed_dead: bool
    dead_at: float | None  # virtual time of the DEAD verdict
    probes_failed: int
    attempts: int  # task attempts started (2 means the work was re-run elsewhere)
    zombie_finished_at: float | None


def simulate_pause(
    pause_s: float, start_s: float, interval_s: float = 5.0, threshold: int = 3, work_s: float = 60.0
) -> PauseOutcome:
    """Run one task of `work_s` seconds on N1, pause N1 for `pause_s` from `start_s`, and report."""
    run = run_fault("pause", start_s, pause_s, interval_s, threshold, work_s, linger=True)
    reading = Reading(run.log)
    dead_at = run.first(Kind.LIVENESS_DEAD)
    zombie = [r.time for r in reading.of(Kind.LIVENESS_ZOMBIE_FINISHED)]
    return PauseOutcome(
        presumed_dead=dead_at is not None,
        dead_at=dead_at,
        probes_failed=reading.count(Kind.LIVENESS_PROBE_FAILED, node=run.node),
        attempts=len(run.starts()),
        zombie_finished_at=zombie[0] if zombie else None,
    )
