"""Seed 000's placement-group case (Ray #65147) as a reusable scenario, sampled over virtual time.

Four 1-CPU nodes labelled L1, L2, L1, L2. PG_A holds N1+N2 and PG_B holds N3+N4, each needing one
L1 and one L2 bundle. Losing N2 leaves PG_A recovering; losing N3 leaves PG_B recovering too, and
each then holds what the other needs (a wait-for cycle). PG_C needs only `PG_C_ONLY`, offered by a
node of its own, so its resources are free: if it gets no attempt, the queue never gave it a turn.

`SeedCase` builds that cluster under a chosen queue policy; `attempt_trace` plays a fixed script
of faults on it and samples every group's `scheduling_attempt` on a grid, for the lesson-9 widget
and its numbers module. Everything runs on miniray's virtual clock, so a trace is the same on
every run and in the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import miniray
from miniray import placement, sim
from miniray.cluster_utils import Cluster
from miniray.util.placement_group import placement_group, placement_group_table, remove_placement_group

SELECTOR = [{"tier": "L1"}, {"tier": "L2"}]
TIERS = ("L1", "L2", "L1", "L2")
GROUPS = ("PG_A", "PG_B", "PG_C")

# miniray's default attempt cost: ~222,000 attempts a second, the seed's host.
SEED_HOST_COST_S = 4.5e-6
# Real Ray 2.60 on the course's build machine: attempts a second of one spinning group, as the
# conformance suite recorded it (tests/conformance/recorded/ray-2.60.0.json,
# placement_group_starvation.after_n2_loss._pg_a_attempts_per_s). Copied here because the lab's
# browser kernel has no tests/ folder; a unit test keeps the two equal.
REAL_RAY_ONE_GROUP_RATE = 40598


def bounded_priority(window_s: float = 0.010) -> Callable[[Any, float], str]:
    """A policy between the two shipped ones: strict priority for `window_s` of recovery, then
    backoff (one of the "bounded" contracts the seed lists)."""

    def policy(pg: Any, now: float) -> str:
        if pg.state == "RESCHEDULING" and pg.recovering_since is not None:
            return "front" if now - pg.recovering_since < window_s else "backoff"
        return "backoff"

    policy.__name__ = f"bounded_{window_s * 1000:g}ms"
    return policy


# The policies the widget offers, by the label it shows.
POLICY_CHOICES: dict[str, Any] = {
    "ray-2.60": "ray-2.60",
    "backoff": "backoff",
    "bounded 10 ms": bounded_priority(0.010),
}


class SeedCase:
    """The seed's cluster on a fresh miniray runtime, PG_A and PG_B created. Call `close()`."""

    def __init__(self, policy: Any = "ray-2.60", seed: int = 0, **system_config: Any):
        miniray.shutdown()  # a lab may still have its own cluster up: this case starts afresh
        sim.set_seed(seed)
        config = dict(system_config, placement_group_queue_policy=policy)
        self.cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
        miniray.init(address=self.cluster.address)
        self.nodes = [self.cluster.add_node(num_cpus=1, labels={"tier": t}) for t in TIERS]
        self.groups = {name: self._group(name) for name in ("PG_A", "PG_B")}
        miniray.get([g.ready() for g in self.groups.values()])

    @staticmethod
    def _group(name: str):
        return placement_group(
            [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", name=name, bundle_label_selector=SELECTOR
        )

    def lose(self, number: int) -> None:
        """Remove node N<number> (1-based, as the seed names them), ungracefully."""
        self.cluster.remove_node(self.nodes[number - 1], allow_graceful=False)

    def add_pg_c(self):
        """A node offering PG_C_ONLY, and PG_C asking for exactly that."""
        self.cluster.add_node(num_cpus=0, resources={"PG_C_ONLY": 1})
        self.groups["PG_C"] = placement_group([{"PG_C_ONLY": 1}], name="PG_C")
        return self.groups["PG_C"]

    def remove(self, name: str) -> None:
        remove_placement_group(self.groups[name])

    def row(self, name: str) -> dict:
        return placement_group_table(self.groups[name])

    def attempts(self, name: str) -> int:
        return self.row(name)["stats"]["scheduling_attempt"] if name in self.groups else 0

    def state(self, name: str) -> str:
        return self.row(name)["state"] if name in self.groups else "-"

    def diagnosis(self) -> placement.Diagnosis:
        return placement.diagnose()

    def close(self) -> None:
        miniray.shutdown()
        self.cluster.shutdown()

    def __enter__(self) -> SeedCase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# The script every trace plays, in virtual seconds after PG_A and PG_B are created.
LOSE_N2_AT = 0.5
PG_C_AT = 1.0
LOSE_N3_AT = 1.5
EVENTS = ((LOSE_N2_AT, "N2 lost"), (PG_C_AT, "PG_C asked"), (LOSE_N3_AT, "N3 lost"))


@dataclass(frozen=True)
class AttemptTrace:
    """Each group's scheduling-attempt counter sampled at `times` (virtual s) under one policy."""

    policy: str
    times: tuple[float, ...]
    attempts: dict[str, tuple[int, ...]]
    final_state: dict[str, str]
    pg_c_created_at: float | None  # the first sample at which PG_C was CREATED, if any
    diagnosis: tuple[str, ...]
    # Who waits for whom at the end, from the same diagnosis: (waiter, holder, node), and the
    # cycles among them (each closing on its first group).
    waits: tuple[tuple[str, str, str], ...] = ()
    cycles: tuple[tuple[str, ...], ...] = ()

    def final(self, name: str) -> int:
        return self.attempts[name][-1]

    def rate(self, name: str, since: float) -> float:
        """Attempts per virtual second from the first sample at or after `since` to the end."""
        i = next(k for k, t in enumerate(self.times) if t >= since - 1e-12)
        span = self.times[-1] - self.times[i]
        return (self.attempts[name][-1] - self.attempts[name][i]) / span if span > 0 else 0.0


def attempt_trace(
    policy_label: str = "ray-2.60",
    horizon_s: float = 3.0,
    step_s: float = 0.05,
    attempt_cost_s: float = SEED_HOST_COST_S,
) -> AttemptTrace:
    """Play the seed's script under one policy and sample the counters every `step_s`."""
    if policy_label not in POLICY_CHOICES:
        raise ValueError(f"unknown policy {policy_label!r}; choose one of {sorted(POLICY_CHOICES)}")
    if not step_s > 0 or not horizon_s > LOSE_N3_AT:
        raise ValueError(f"need step_s > 0 and horizon_s > {LOSE_N3_AT} (got {step_s}, {horizon_s})")
    case = SeedCase(POLICY_CHOICES[policy_label], placement_group_attempt_cost_s=attempt_cost_s)
    try:
        start = sim.now()
        script = [
            (LOSE_N2_AT, lambda: case.lose(2)),
            (PG_C_AT, case.add_pg_c),
            (LOSE_N3_AT, lambda: case.lose(3)),
        ]
        samples = round(horizon_s / step_s)
        times: list[float] = []
        counts: dict[str, list[int]] = {name: [] for name in GROUPS}
        pg_c_created_at: float | None = None
        for k in range(samples + 1):
            t = round(k * step_s, 9)
            while script and script[0][0] <= t:
                at, action = script.pop(0)
                sim.sleep(start + at - sim.now())
                action()
            sim.sleep(start + t - sim.now())
            times.append(t)
            for name in GROUPS:
                counts[name].append(case.attempts(name))
            if pg_c_created_at is None and case.state("PG_C") == "CREATED":
                pg_c_created_at = t
        diagnosis = case.diagnosis()
        return AttemptTrace(
            policy=policy_label,
            times=tuple(times),
            attempts={name: tuple(v) for name, v in counts.items()},
            final_state={name: case.state(name) for name in GROUPS},
            pg_c_created_at=pg_c_created_at,
            diagnosis=tuple(line.strip() for line in diagnosis.lines()),
            waits=tuple((w, h, n) for w, h, n in diagnosis.edges),
            cycles=tuple(tuple(c) for c in diagnosis.cycles),
        )
    finally:
        case.close()


def recovery_latency(policy: Any, stuck_for_s: float = 10.0) -> float:
    """Seconds from capacity returning (PG_B removed) to PG_A CREATED, after both groups have been
    stuck in their cycle for `stuck_for_s`: the price backoff pays for liveness."""
    with SeedCase(policy) as case:
        case.lose(2)
        case.lose(3)
        sim.sleep(stuck_for_s)
        start = sim.now()
        case.remove("PG_B")
        miniray.get(case.groups["PG_A"].ready())
        return sim.now() - start
