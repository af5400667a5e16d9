"""fault11 checks: a rescheduler that breaks the PG_A/PG_B wait-for cycle, fairly and sparingly.

Seed 000's cluster: four 1-CPU nodes labelled L1, L2, L1, L2; PG_A and PG_B each need one L1
and one L2 bundle (STRICT_SPREAD). Losing PG_A's L2 node and PG_B's L1 node leaves each holding
exactly what the other needs: a cycle no queue policy can break. PG_C, a bystander, holds a node
of its own. The queue policy is "backoff" (fault09's side of the deadlock is solved here), so the
learner's rescheduler is the only thing that can change the allocation.

miniray ships the mechanism (`release_surviving`, `diagnosis().cycles`) and no policy; the
lesson's own rescheduler always releases PG_B. The learner writes the policy. Their function
gets a `Context` of this file, not miniray's: every release is recorded with the cycles that
stood at that instant, and miniray's scheduler stays out of reach.

Each round loses two nodes; 2 s later an L1 and an L2 node join, so the released group (and a
group that was only waiting for capacity) can recover.

The classes the statement names, and where each is drawn: a cycle, the same cycle mirrored, and
waiting with no cycle (a group waiting for capacity); the second loss of a round at once or up
to 0.9 s after the first (until then a group waits on no cycle); one round and several in a row,
so that fairness across cycles shows. The seeded tier draws kinds and gaps from all of these.
"""

from __future__ import annotations

import random
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks
from miniray import placement, sim
from miniray.cluster_utils import Cluster
from miniray.util.placement_group import placement_group, placement_group_table

checks = Checks()
SELECTOR = [{"tier": "L1"}, {"tier": "L2"}]
BROKEN_WITHIN_S = 1.0  # a cycle must be gone this soon after it forms
CAPACITY_AFTER_S = 2.0  # new L1 and L2 nodes join this long after each round's losses
CREATED_WITHIN_S = 5.0  # after they join, every group is CREATED within this long
SEEDS = range(1, 7)  # the seeded tier: four rounds each, kinds and gaps drawn from the seed
ROUNDS_PER_SEED = 4
GAPS_S = (0.0, 0.000_01, 0.25, 0.9)  # between a round's two losses: a cycle forms at the second


class Context:
    """What the learner's rescheduler sees: the failed group, the groups, the cycles, and one action."""

    def __init__(self, real: Any, log: list[dict], round_no: int) -> None:
        self.__real = real
        self.__log = log
        self.__round = round_no
        self.group = real.group  # the recovering group whose attempt just failed
        self.now = real.now
        self.__cycles: list[list[str]] | None = None  # as they stood when this call began

    @property
    def groups(self) -> list:
        return self.__real.groups

    def diagnosis(self) -> Any:
        return self.__real.diagnosis()

    def by_label(self, label: str) -> Any:
        return self.__real.by_label(label)

    def release_surviving(self, victim: Any) -> None:
        """Release `victim`'s surviving bundles (a group or its name); it then recovers from scratch."""
        label = victim if isinstance(victim, str) else victim.label
        if self.__cycles is None:
            self.__cycles = [list(c) for c in self.__real.diagnosis().cycles]
        self.__log.append({"round": self.__round, "victim": label, "cycles": self.__cycles, "at": self.now})
        self.__real.release_surviving(label)


class Recorder:
    def __init__(self, rescheduler: Any) -> None:
        self.rescheduler = rescheduler
        self.releases: list[dict] = []
        self.round = 0

    def __call__(self, real_ctx: Any) -> None:
        self.rescheduler(Context(real_ctx, self.releases, self.round))


def _group(name: str) -> Any:
    return placement_group(
        [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", name=name, bundle_label_selector=SELECTOR
    )


def _state(pg: Any) -> str:
    return placement_group_table(pg)["state"]


def _node_of(cluster: Any, pg: Any, tier: str) -> Any:
    ids = set(placement_group_table(pg)["bundles_to_node_id"].values())
    return next(n for n in cluster.worker_nodes if n.node_id in ids and n.labels.get("tier") == tier)


def _wait(groups: list, until: float, need_all: bool) -> float | None:
    """Virtual seconds from now until all (or any) of `groups` are CREATED, or None by `until`."""
    start = sim.now()
    while True:
        states = [_state(g) == "CREATED" for g in groups]
        if all(states) if need_all else any(states):
            return sim.now() - start
        if sim.now() >= until:
            return None
        time.sleep(0.05)


def _cycle_gone(until: float) -> float | None:
    """Virtual seconds from now until no wait-for cycle stands, or None by `until`. Measured on the
    cycle, not on CREATED: under the backoff policy the survivor's next attempt may be a while off."""
    start = sim.now()
    while placement.diagnose().cycles:
        if sim.now() >= until:
            return None
        time.sleep(0.05)
    return sim.now() - start


def _run(sub: Any, ctx: Any, plan: list[tuple[str, float]]) -> dict:
    """`plan`: one (kind, gap) per round. Kind "cycle" loses A's L2 and B's L1 node, "mirror" A's
    L1 and B's L2 (the same cycle the other way round), "wait" both of A's nodes (no cycle). The
    second node goes `gap` virtual seconds after the first: until then a group waits, on no cycle."""
    recorder = Recorder(sub.make_rescheduler())
    ctx.extra["releases"] = recorder.releases  # read by the evidence, also when the run stalls
    ray.shutdown()
    config = {"placement_group_queue_policy": "backoff", "placement_group_rescheduler": recorder}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": config})
    for tier in ("L1", "L2", "L1", "L2"):
        cluster.add_node(num_cpus=1, labels={"tier": tier})
    cluster.add_node(num_cpus=0, resources={"C": 1})
    cluster.connect()
    sim.set_budget(max_virtual_seconds=120.0)
    a, b = _group("PG_A"), _group("PG_B")
    c = placement_group([{"C": 1}], name="PG_C")  # a bystander: on no cycle, ever
    ray.get([a.ready(), b.ready(), c.ready()])
    rounds = []
    for i, (kind, gap) in enumerate(plan, start=1):
        recorder.round = i
        if kind == "wait":
            lost = [_node_of(cluster, a, "L1"), _node_of(cluster, a, "L2")]
        elif kind == "cycle":
            lost = [_node_of(cluster, a, "L2"), _node_of(cluster, b, "L1")]
        else:
            lost = [_node_of(cluster, a, "L1"), _node_of(cluster, b, "L2")]
        start = sim.now()
        cluster.remove_node(lost[0], allow_graceful=False)
        if gap:
            time.sleep(gap)
        cluster.remove_node(lost[1], allow_graceful=False)
        broken = _cycle_gone(sim.now() + BROKEN_WITHIN_S) if kind != "wait" else None
        time.sleep(max(0.0, start + CAPACITY_AFTER_S - sim.now()))
        cluster.add_node(num_cpus=1, labels={"tier": "L1"})
        cluster.add_node(num_cpus=1, labels={"tier": "L2"})
        created = _wait([a, b, c], sim.now() + CREATED_WITHIN_S, need_all=True)
        rounds.append({"round": i, "kind": kind, "broken": broken, "created": created})
    del a, b, c
    return {"rounds": rounds, "releases": recorder.releases}


@checks.scenario("seed-cycle")
def seed_cycle(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, [("cycle", 0.0)])


@checks.scenario("waiting-not-a-cycle")
def waiting(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, [("wait", 0.5)])


@checks.scenario("three-cycles")
def three_cycles(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, [("cycle", 0.0), ("mirror", 0.0), ("cycle", 0.0)])


def _seeded(seed: int) -> Any:
    def scenario(sub: Any, ctx: Any) -> dict:
        rng = random.Random(seed)  # a private generator: the same rounds on every Python
        kinds = ("cycle", "mirror", "wait")
        return _run(sub, ctx, [(rng.choice(kinds), rng.choice(GAPS_S)) for _ in range(ROUNDS_PER_SEED)])

    return scenario


for _seed in SEEDS:
    checks.scenario(f"seeded-rounds-{_seed}")(_seeded(_seed))


@checks.invariant("release-only-in-a-cycle")
def only_in_a_cycle(outcome: dict, ctx: Any) -> list[str]:
    """Nothing is released while no wait-for cycle stands: a group waiting for capacity only needs time."""
    return [
        f"round {e['round']}: {e['victim']} was released at {e['at']:.6f} s while no wait-for cycle stood; "
        "a group waiting for capacity only needs the capacity"
        for e in outcome["releases"]
        if not e["cycles"]
    ]


@checks.invariant("victim-on-the-cycle")
def victim_on_cycle(outcome: dict, ctx: Any) -> list[str]:
    """The released group is one of the groups on the cycle."""
    return [
        f"round {e['round']}: {e['victim']} was released, but the cycle was "
        f"{' / '.join(' -> '.join(c) for c in e['cycles'])}; releasing it frees nothing the cycle needs"
        for e in outcome["releases"]
        if e["cycles"] and not any(e["victim"] in c for c in e["cycles"])
    ]


@checks.invariant("one-victim-per-cycle")
def one_victim(outcome: dict, ctx: Any) -> list[str]:
    """One release per round: one victim breaks a two-group cycle."""
    per_round: dict[int, list[str]] = {}
    for e in outcome["releases"]:
        per_round.setdefault(e["round"], []).append(e["victim"])
    return [
        f"round {n}: released {', '.join(victims)}; one victim breaks a two-group cycle, "
        "and each further release disrupts a group for nothing"
        for n, victims in per_round.items()
        if len(victims) > 1
    ]


@checks.invariant("cycle-broken")
def cycle_broken(outcome: dict, ctx: Any) -> list[str]:
    """Within 1 s of a cycle forming, no cycle stands."""
    return [
        f"round {r['round']}: PG_A and PG_B each held what the other needed, and the cycle still stood "
        f"{BROKEN_WITHIN_S:g} s later (no new capacity comes in that time)"
        for r in outcome["rounds"]
        if r["kind"] != "wait" and r["broken"] is None
    ]


@checks.invariant("no-group-starved")
def no_group_starved(outcome: dict, ctx: Any) -> list[str]:
    """Each victim is a member of the cycle released least often so far: no group pays for every cycle."""
    released: dict[str, int] = {}
    problems = []
    for e in outcome["releases"]:
        members = {m for c in e["cycles"] for m in c if e["victim"] in c}
        fewer = sorted(m for m in members if released.get(m, 0) < released.get(e["victim"], 0))
        if fewer:
            problems.append(
                f"round {e['round']}: {e['victim']} was released again ({released[e['victim']] + 1} times) "
                f"while {', '.join(fewer)}, on the same cycle, had been released "
                f"{released.get(fewer[0], 0)} time(s)"
            )
        released[e["victim"]] = released.get(e["victim"], 0) + 1
    return problems


@checks.invariant("all-groups-created")
def all_created(outcome: dict, ctx: Any) -> list[str]:
    """Once an L1 and an L2 node join, PG_A, PG_B and PG_C are all CREATED within 5 s."""
    return [
        f"round {r['round']}: an L1 and an L2 node joined, and PG_A, PG_B and PG_C were not all "
        f"CREATED {CREATED_WITHIN_S:g} s later"
        for r in outcome["rounds"]
        if r["created"] is None
    ]


@checks.evidence_for("never-released")
def never_released(outcome: Any, ctx: Any) -> bool:
    return not ctx.extra.get("releases")


@checks.evidence_for("same-victim-every-time")
def same_victim(outcome: Any, ctx: Any) -> bool:
    """More than one release, and the same group paid every time."""
    victims = [e["victim"] for e in ctx.extra.get("releases", []) if e["cycles"]]
    return len(victims) > 1 and len(set(victims)) == 1
