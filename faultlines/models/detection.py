"""How long a probe-based failure detector takes, and how often it calls a slow node dead (lesson 7).

The detector is miniray's (`miniray.liveness.Detector`): a probe every `interval_s` on a fixed
grid; a crashed node is DEAD at the next probe (a refused connection is conclusive); a frozen
node fails each probe it cannot answer and is DEAD after `threshold` failures in a row.

For a fault that starts at a uniformly random moment between two probes:

- a crash is declared within one interval: (0, p], p/2 on average;
- a hang is declared at the threshold-th probe after it starts: ((k-1)p, kp], (k - 1/2)p on average;
- a pause of d seconds fails floor(d/p) or floor(d/p) + 1 probes, so it is presumed dead with
  probability clamp((d - (k-1)p) / p, 0, 1): never below (k-1)p, always from kp.

`simulate_pause` runs the real detector for one pause, so tests check the formulas against it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray
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
    _check(interval_s, threshold)
    miniray.shutdown()  # a lab may still have its own cluster up: this run starts afresh
    sim.set_seed(0)
    config = {"liveness": {"probe_interval_s": interval_s, "unhealthy_threshold": threshold}}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
    miniray.init(address=cluster.address)
    try:
        n1 = cluster.add_node(num_cpus=1)
        cluster.add_node(num_cpus=1)

        @miniray.remote
        def work() -> str:
            time.sleep(work_s)
            return "done"

        ref = work.remote()
        sim.pause_node(n1, pause_s, at=start_s)
        miniray.get(ref)
        sim.sleep(max(0.0, start_s + pause_s + work_s - sim.now()) + 1.0)  # let a zombie finish
        log = sim.event_log()
        dead = [r.time for r in log if r.kind == "liveness.dead" and r["node"] == n1.name]
        zombie = [r.time for r in log if r.kind == "liveness.zombie_finished"]
        return PauseOutcome(
            presumed_dead=bool(dead),
            dead_at=dead[0] if dead else None,
            probes_failed=sum(1 for r in log if r.kind == "liveness.probe_failed" and r["node"] == n1.name),
            attempts=sum(1 for r in log if r.kind == "task.start"),
            zombie_finished_at=zombie[0] if zombie else None,
        )
    finally:
        miniray.shutdown()
        cluster.shutdown()
