"""fault09 checks: failed recovery keeps its priority for a bounded number of attempts, then backs off.

miniray ships the two ends of the design space (seed 000): `ray-2.60` sends a failed recovery
back to rank 0 forever (a hot loop that starves every due group) and `backoff` sends it to the
back of the line after its first failure. The learner writes the point in between: a
recovering group keeps rank 0 for its first BOUND attempts of each recovery, then backs off.

The cluster: two 3-CPU nodes hold the bundles of groups R (2 CPUs each) and S (1 CPU each), a
third is taken by group F, and a node with a "spare" resource fits only the due groups. Each
scenario loses one of R's and S's nodes, so both must recover, at the same instant, and cannot
yet (their bundles would fit where F is, so the failures are feasible); a group created at the
same moment is due and fits on the spare node. Then a node joins and both recover.
The learner's policy is wrapped so every answer is recorded: (group, recovery episode, answer).

The classes the statement names, and where each is drawn: a recovering group (RESCHEDULING) and
a new one (PENDING, W: it never fits before it is removed); two groups recovering from the same
instant (R and S share `recovering_since`); a second recovery of the same group (the second loss
of "two-node-losses"); a due group that fits elsewhere (D). Every answer of a recovery is judged,
not just the first few: once it has backed off, it never returns to the front.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.budgets import LearnerBudgetExceeded
from faultlines.grader.checks import Checks
from faultlines.reading import Violation
from miniray import sim
from miniray.util.placement_group import placement_group, placement_group_table, remove_placement_group

checks = Checks()
BOUND = 3  # attempts at rank 0 per recovery: the fresh one and two retries
DUE_WITHIN_S = 1.0  # a due group that fits is placed within this long, whatever recovers
# A recovery answered front this many times and never backoff is a hot loop, and the run stops
# there: each failed attempt costs ~5 µs of virtual time, so left alone it would go on until the
# learner's step budget ran out (~1000 answers, 4 runs per check: most of a first check's time in
# the browser). Far above BOUND and above any bound a learner plausibly writes (bound_ten.py's
# recoveries end at 13 answers); a bound between this and the budget gets the same verdict.
HOT_LOOP = 50


class Recorder:
    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.answers: list[tuple[str, str, float | None, str, float]] = []
        self.record_type: type | None = None
        self.fronts: dict[tuple[str, float | None], int] = {}  # per recovery, while it never backed off

    def __call__(self, pg: Any, now: float) -> str:
        self.record_type = type(pg)  # the record a policy is given: what the probes are made of
        answer = self.policy(pg, now)
        self.answers.append((pg.name, pg.state, pg.recovering_since, answer, now))
        if pg.state == "RESCHEDULING":
            self._count(pg.name, pg.recovering_since, answer, now)
        return answer

    def _count(self, name: str, since: float | None, answer: str, now: float) -> None:
        key = (name, since)
        if answer != "front" or self.fronts.get(key, 0) < 0:
            self.fronts[key] = -1  # backed off once: not this hot loop, whatever comes after
            return
        self.fronts[key] = self.fronts.get(key, 0) + 1
        if self.fronts[key] >= HOT_LOOP:
            raise LearnerBudgetExceeded(
                f"hot loop: your policy answered front to {HOT_LOOP} failed attempts of {name}'s "
                f"recovery in a row, in {(now - (since or 0.0)) * 1e3:.2f} ms, and the check stopped it there"
            )


def _probe(sub: Any, record_type: type | None) -> dict[str, str | None]:
    """Two questions to a fresh policy, each the first failed attempt of a new recovery: of a
    group with one attempt in its life so far, and of one with ten. A policy that counts per
    recovery answers front to both; one that reads pg.scheduling_attempt tells them apart."""
    answers: dict[str, str | None] = {}
    if record_type is None:  # the policy was never asked
        return answers
    for name, attempts in (("young", 1), ("old", 10)):
        # A record of the kind the policy is given (so the grader's sandbox lets it cross).
        pg = record_type(f"probe-{name}", f"P-{name}", [], "PACK", 0.0)
        pg.state, pg.recovering_since, pg.scheduling_attempt = "RESCHEDULING", 100.0, attempts
        try:
            answers[name] = sub.make_policy()(pg, 100.0)
        except Exception:
            answers[name] = None
    return answers


def _state(pg: Any) -> str:
    return placement_group_table(pg)["state"]


def _run(sub: Any, ctx: Any, losses: int) -> dict:
    policy = sub.make_policy()
    recorder = Recorder(policy)
    ctx.extra["answers"] = recorder.answers  # read by the evidence, also when the run stalls
    ray.shutdown()
    from miniray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "_system_config": {"placement_group_queue_policy": recorder}},
    )
    cluster.add_node(num_cpus=3)
    b = cluster.add_node(num_cpus=3)
    cluster.add_node(num_cpus=3)  # taken by F: the lost bundles could fit here, but not now
    cluster.add_node(num_cpus=0, resources={"spare": 1})  # fits a due group, none of the others
    cluster.connect()
    sim.set_budget(max_virtual_seconds=60.0)
    # R and S share both nodes, so a node loss starts both recoveries at the same instant.
    r = placement_group([{"CPU": 2}, {"CPU": 2}], strategy="SPREAD", name="R")
    ray.get(r.ready())
    s = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="SPREAD", name="S")
    ray.get(s.ready())
    f = placement_group([{"CPU": 3}], name="F")
    ray.get(f.ready())
    outcome: dict[str, Any] = {"episodes": [], "answers": recorder.answers}
    victim = b
    for i in range(losses):
        start = sim.now()
        cluster.remove_node(victim, allow_graceful=False)
        due = placement_group([{"spare": 1}], name=f"D{i + 1}")
        placed_due = None
        try:
            ray.get(due.ready(), timeout=DUE_WITHIN_S)
            placed_due = sim.now() - start
        except ray.exceptions.GetTimeoutError:
            pass
        # W is new work that does not fit yet: it must wait its turn by arrival, never at rank 0.
        waiting = placement_group([{"CPU": 2}], name=f"W{i + 1}")
        time.sleep(1.5)
        remove_placement_group(waiting)  # gone before capacity returns: it is only a probe
        del waiting
        time.sleep(0.5)
        joined = cluster.add_node(num_cpus=3)  # capacity comes back: both must still be eligible
        recovered = None
        for _ in range(40):
            if _state(r) == "CREATED" and _state(s) == "CREATED":
                recovered = sim.now() - start
                break
            time.sleep(0.25)
        outcome["episodes"].append({"loss": i + 1, "at": start, "due": placed_due, "recovered": recovered})
        remove_placement_group(due)
        del due
        victim = joined
    del r, s, f
    ctx.extra["probes"] = _probe(sub, recorder.record_type)
    return outcome


@checks.scenario("one-node-loss")
def one_loss(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, 1)


@checks.scenario("two-node-losses")
def two_losses(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, 2)


@checks.invariant("no-due-group-starves")
def no_due_group_starves(outcome: dict, ctx: Any) -> list[str]:
    """While R and S fail to recover, the small group D, which fits on the spare node, is placed within 1 s."""
    return [
        f"loss {e['loss']}: group D{e['loss']} fit on the spare node but was not placed within "
        f"{DUE_WITHIN_S:g} s while R and S failed to recover"
        for e in outcome["episodes"]
        if e["due"] is None
    ]


@checks.invariant("failed-recovery-stays-eligible")
def stays_eligible(outcome: dict, ctx: Any) -> list[str]:
    """Once capacity joins, R and S both recover within 10 s: a failed recovery never gives up for good."""
    return [
        f"loss {e['loss']}: a 3-CPU node joined 2 s after the loss, and R and S had not both recovered 10 s later"
        for e in outcome["episodes"]
        if e["recovered"] is None
    ]


@checks.invariant("new-groups-wait-their-turn")
def new_groups_wait(outcome: dict, ctx: Any) -> list[str]:
    """A group that was never placed (PENDING) is never sent to rank 0: new work queues by arrival."""
    fronts = sorted(
        {
            name
            for name, state, _since, answer, _now in outcome["answers"]
            if state != "RESCHEDULING" and answer == "front"
        }
    )
    return [
        f"{name} is a new group (never placed yet), and a failed attempt sent it to rank 0" for name in fronts
    ]


@checks.invariant("recovery-priority-bounded")
def priority_bounded(outcome: dict, ctx: Any) -> list[str]:
    """In each recovery of each group, the first two failed attempts are answered front, the next ones backoff."""
    episodes: dict[tuple[str, float | None], list[str]] = {}
    for name, state, since, answer, _now in outcome["answers"]:
        if state == "RESCHEDULING":
            episodes.setdefault((name, since), []).append(answer)
    want = ["front"] * (BOUND - 1)
    problems = []
    count: dict[str, int] = {}
    for (name, since), answers in episodes.items():
        count[name] = count.get(name, 0) + 1
        head = answers[: BOUND - 1]
        rest = answers[BOUND - 1 :]  # every later answer, however many there were
        if head != want[: len(head)] or "front" in rest:
            shown = ", ".join(answers[:8]) + (f", ... ({len(answers)} in all)" if len(answers) > 8 else "")
            problems.append(
                f"{name}'s recovery {count[name]} (from {since:.6f} s): its failed attempts were answered "
                f"{shown}; the rule is front for the first {BOUND - 1}, then backoff"
            )
    return problems


def _recoveries(ctx: Any) -> dict[tuple[str, float | None], list[str]]:
    found: dict[tuple[str, float | None], list[str]] = {}
    for name, state, since, answer, _now in ctx.extra.get("answers", []):
        if state == "RESCHEDULING":
            found.setdefault((name, since), []).append(answer)
    return found


@checks.budget_verdict
def answered_into_a_hot_loop(ctx: Any) -> list[Violation]:
    """The policy answered front to every failed attempt of a recovery until the learner's code
    ran out of its step budget: no loop of the learner's, the queue's, fed by those answers. The
    invariant it broke is the due group's, which never got its turn."""
    for (name, since), answers in _recoveries(ctx).items():
        if len(answers) > BOUND and "backoff" not in answers:
            return [
                Violation(
                    "no-due-group-starves",
                    f"{name}'s recovery (from {since:.6f} s) was answered front {len(answers)} times in a "
                    f"row and never backoff: each failed attempt went back to rank 0 at once, a hot loop "
                    f"(the check stops one after {HOT_LOOP} answers, or when your policy has used up its "
                    f"step budget), and the due group never got a turn",
                )
            ]
    return []


@checks.evidence_for("front-without-end")
def front_without_end(outcome: Any, ctx: Any) -> bool:
    """A recovery was sent to rank 0 after more failed attempts than the rule's bound, and never backed off."""
    return any(len(a) > BOUND and "backoff" not in a for a in _recoveries(ctx).values())


@checks.evidence_for("first-failure-backed-off")
def first_failure_backed_off(outcome: Any, ctx: Any) -> bool:
    """A recovery's first failed attempt was already answered backoff."""
    return any(a[0] == "backoff" for a in _recoveries(ctx).values())


def _by_group(ctx: Any) -> dict[str, list[list[str]]]:
    """Each group's recoveries, in order, as the lists of answers they got."""
    groups: dict[str, list[list[str]]] = {}
    for (name, _since), answers in _recoveries(ctx).items():
        groups.setdefault(name, []).append(answers)
    return groups


@checks.evidence_for("later-recovery-without-priority")
def later_recovery_without_priority(outcome: Any, ctx: Any) -> bool:
    """A group's first recovery kept its priority, and a later one got none."""
    return any(
        len(rs) > 1 and rs[0][:1] == ["front"] and any(r[:1] == ["backoff"] for r in rs[1:])
        for rs in _by_group(ctx).values()
    )


@checks.evidence_for("front-again-after-backoff")
def front_again_after_backoff(outcome: Any, ctx: Any) -> bool:
    """A recovery went back to the front after it had backed off."""
    return any("front" in a[a.index("backoff") :] for a in _recoveries(ctx).values() if "backoff" in a)


@checks.evidence_for("counts-the-groups-life")
def counts_the_groups_life(outcome: Any, ctx: Any) -> bool:
    """A fresh policy asked about the first failed attempt of a new recovery answers by the
    group's lifetime count: front for a group with 1 attempt so far, backoff for one with 10."""
    probes = ctx.extra.get("probes", {})
    return probes.get("young") == "front" and probes.get("old") == "backoff"


@checks.evidence_for("one-budget-for-two-groups")
def one_budget_for_two_groups(outcome: Any, ctx: Any) -> bool:
    """The answers are what one shared count per recovering_since gives (R's attempts spend S's),
    and not what a count over each group's life gives (which can match them by coincidence)."""
    if counts_the_groups_life(outcome, ctx):
        return False
    answers = [a for a in ctx.extra.get("answers", []) if a[1] == "RESCHEDULING"]
    shared: dict[float | None, int] = {}
    own: dict[tuple[str, float | None], int] = {}
    differs = False
    for name, _state, since, answer, _now in answers:
        shared[since] = shared.get(since, 0) + 1
        own[(name, since)] = own.get((name, since), 0) + 1
        if answer != ("front" if shared[since] < BOUND else "backoff"):
            return False  # not the shared budget's answer
        differs = differs or answer != ("front" if own[(name, since)] < BOUND else "backoff")
    return differs
