"""fault10 checks: at the end of a refit, promote only the shards that refit wrote to.

The harness runs the course's fleet model (faultlines.fleet, seed 002: four generation shards,
a probe every 5 s, a refit after every 121 s training step) with the learner's
`should_promote(shard, refit)` in place of the controller's promotion rule. It is asked once
per STALE shard when a refit ends; everything else is the shipped controller.

The faults: a crash or a hang of shard 2 at every probe interval across one training step
(a restart that ends inside a refit is the case the shipped rule gets wrong), and seeded pairs
of faults on two shards. In the seed's fleet a restart takes 360 s and any fault on a member
fails the whole collective, so a shard cannot leave the group and come back within one refit,
and a rule that matches shards by index alone passes there; "fast-restart-sweep" runs a fleet
where it can (PerShardFleet: weights sent shard by shard, a 4 s reload) and catches that rule. The fleet runs on its own virtual clock, so each is a plain function
call; a failure's detail gives the fault, so `Fleet(...).crash(2, 28).run(540)` replays it.
"""

from __future__ import annotations

import random
from typing import Any

from faultlines.fleet import STALE, Fleet
from faultlines.grader.checks import Checks

checks = Checks()
FAULTED = 2
UNTIL_S = 540.0  # four refits: a shard that came back after the third is promoted by the fourth
SWEEP_S = range(0, 131, 5)  # one training step (121 s) plus its refit, on the probe grid
SEEDS = range(1, 9)


class GradedFleet(Fleet):
    """The shipped controller, with the learner's rule deciding each STALE shard's promotion."""

    def __init__(self, rule: Any) -> None:
        super().__init__(promote="refitted")
        self.rule = rule
        self.decisions: list[dict] = []
        self.stale_since: dict[int, float] = {}

    def _set(self, s: Any, state: str, why: str) -> None:
        if state == STALE and s.state != STALE:
            self.stale_since[s.index] = self.k.now
        super()._set(s, state, why)

    def _promote(self, r: Any) -> None:
        for s in self.shards:
            if s.state != STALE:
                continue
            shard = {
                "index": s.index,
                "incarnation": s.incarnation,
                "stale_since": self.stale_since.get(s.index, 0.0),
                "reported_version": self.reported[s.index],
            }
            refit = {"version": r.version, "started": r.started, "group": [tuple(m) for m in r.members]}
            promote = bool(self.rule(shard, refit))
            self.decisions.append(
                {
                    "time": self.k.now,
                    "shard": s.index,
                    "incarnation": s.incarnation,
                    "written": s.index in r.written,
                    "promote": promote,
                    "holds": s.weights,
                    "version": r.version,
                }
            )
            if not promote:
                self.emit("refit.kept_stale", shard=s.index, why="should_promote said no")
                continue
            self._set(s, "HEALTHY", "promoted by should_promote")
            self.reported[s.index] = r.version


class PerShardFleet(GradedFleet):
    """The same controller, with two things the seed's fleet does not have, so that a shard can
    leave and come back within one refit: a small model that reloads in RELOAD_S, and a transfer
    that goes to each shard on its own (a member that fails mid-transfer misses it; the others
    still get their weights and the refit ends as planned)."""

    def __init__(self, rule: Any) -> None:
        super().__init__(rule)
        self.cfg.reload_s = RELOAD_S

    def _peer_fault(self, s: Any) -> None:
        pass  # no collective: one member's failure does not stop the others' transfers


RELOAD_S = 4.0
FAST_SWEEP_S = range(115, 136)  # around the first refit (121 s to 133 s), second by second


def _run(sub: Any, faults: list[tuple[str, int, float]], fleet_class: type = GradedFleet) -> dict:
    fleet = fleet_class(sub.should_promote)
    for kind, shard, at in faults:
        getattr(fleet, kind)(shard, at)
    fleet.run(UNTIL_S)
    label = " and ".join(f"{kind} of shard {shard} at {at:g} s" for kind, shard, at in faults)
    if fleet_class is PerShardFleet:
        label += f" (weights sent shard by shard, a restart takes {RELOAD_S:g} s)"
    return {
        "label": label,
        "decisions": fleet.decisions,
        "rollouts": list(fleet.rollouts),
        "states": {s.index: s.state for s in fleet.shards},
        "stopped": fleet.stopped,
    }


def _scenario(name: str, plans: list[list[tuple[str, int, float]]], fleet_class: type = GradedFleet) -> None:
    """One scenario: a run per plan of faults, then the probe questions (see _probe)."""

    def scenario(sub: Any, ctx: Any) -> list[dict]:
        runs = [_run(sub, faults, fleet_class) for faults in plans]
        _probe(sub, ctx)
        return runs

    checks.scenario(name)(scenario)


def _seeded(seed: int) -> list[tuple[str, int, float]]:
    rng = random.Random(seed)  # a private generator: the same pair of faults on every Python
    first, second = rng.sample(range(4), 2)
    return [
        (rng.choice(("crash", "hang")), first, float(rng.randrange(0, 130))),
        (rng.choice(("crash", "hang")), second, float(rng.randrange(130, 260))),
    ]


_scenario("crash-2-at-28", [[("crash", FAULTED, 28.0)]])
_scenario("crash-2-at-10", [[("crash", FAULTED, 10.0)]])
_scenario("crash-sweep", [[("crash", FAULTED, float(at))] for at in SWEEP_S])
_scenario("hang-sweep", [[("hang", FAULTED, float(at))] for at in SWEEP_S])
_scenario("fast-restart-sweep", [[("crash", FAULTED, float(at))] for at in FAST_SWEEP_S], PerShardFleet)
# A retry after an aborted refit reuses the first attempt's group: shard 0 crashes at 20 s and is
# STALE again before the retry starts, yet not in the group it reuses (shard 1 hangs at 131 s,
# aborting the first attempt). A rule that promotes by time, ignoring the group, serves the
# checkpoint's weights here; seeds 1 to 2000 draw such a pair 17 times, the graded ones never.
_scenario("retry-reuses-group", [[("crash", 0, 20.0), ("hang", 1, 131.0)]])
for _seed in SEEDS:
    _scenario(f"two-faults-seed-{_seed}", [_seeded(_seed)])


@checks.invariant("missed-refit-never-serves")
def missed_refit_never_serves(runs: list[dict], ctx: Any) -> str | None:
    """A STALE shard the refit did not write to (it missed the refit) is never promoted: it would serve old weights."""
    for run in runs:
        for d in run["decisions"]:
            if d["promote"] and not d["written"]:
                served = sum(
                    1
                    for t, i, outcome, w in run["rollouts"]
                    if i == d["shard"] and t > d["time"] and w == d["holds"]
                )
                return (
                    f"{run['label']}: shard {d['shard']} was promoted at {d['time']:g} s by the refit to "
                    f"version {d['version']}, which it missed: it holds version {d['holds']!r} "
                    f"(the checkpoint's) and served {served} rollouts with it"
                )
    return None


@checks.invariant("refitted-shard-serves")
def refitted_shard_serves(runs: list[dict], ctx: Any) -> str | None:
    """A STALE shard the refit wrote current weights to is promoted when the refit ends."""
    for run in runs:
        for d in run["decisions"]:
            if d["written"] and not d["promote"]:
                return (
                    f"{run['label']}: the refit to version {d['version']} wrote to shard {d['shard']} "
                    f"at {d['time']:g} s, and it was kept STALE: a shard with current weights sat out"
                )
    return None


def _probe(sub: Any, ctx: Any) -> None:
    """After the runs, four questions the fleet rarely asks, whose answers tell the rules apart: a
    shard in the refit's group whose metric already shows the version, one outside the group whose
    metric is behind, the next life of a group member, and a member in its first life. The
    evidence behind the hints, in ctx.extra["probes"]."""
    refit = {"version": 3, "started": 387.0, "group": [(0, 0), (2, 1), (3, 0)]}  # shard 1 was restarting
    shards = {
        "in-group-metric-current": {
            "index": 2,
            "incarnation": 1,
            "stale_since": 380.0,
            "reported_version": 3,
        },
        "missed-metric-behind": {"index": 1, "incarnation": 1, "stale_since": 390.0, "reported_version": 2},
        # index 3 is in the group as incarnation 0; this is its next life, back after the start
        "restarted-member": {"index": 3, "incarnation": 1, "stale_since": 392.0, "reported_version": 2},
        "member-first-life": {"index": 0, "incarnation": 0, "stale_since": 300.0, "reported_version": 2},
        # STALE before this attempt started, yet not in the group (a retry reuses its first attempt's)
        "missed-stale-before-start": {
            "index": 1,
            "incarnation": 1,
            "stale_since": 384.0,
            "reported_version": 2,
        },
    }
    answers = {}
    for name, shard in shards.items():
        try:
            answers[name] = bool(sub.should_promote(dict(shard), dict(refit, group=list(refit["group"]))))
        except Exception:
            answers[name] = None
    ctx.extra["probes"] = answers


@checks.evidence_for("follows-the-metric")
def follows_the_metric(runs: Any, ctx: Any) -> bool:
    """Promotes by reported_version: a refitted shard whose metric is current stays out, a
    missed one whose metric is behind is promoted."""
    probes = ctx.extra.get("probes", {})
    return probes.get("in-group-metric-current") is False and probes.get("missed-metric-behind") is True


def _decisions(runs: Any) -> list[dict]:
    return [d for run in runs or [] for d in run["decisions"]]


@checks.evidence_for("promoted-every-stale")
def promoted_every_stale(runs: Any, ctx: Any) -> bool:
    ds = _decisions(runs)
    return bool(ds) and all(d["promote"] for d in ds)


@checks.evidence_for("promoted-none")
def promoted_none(runs: Any, ctx: Any) -> bool:
    ds = _decisions(runs)
    return bool(ds) and not any(d["promote"] for d in ds)


@checks.evidence_for("matches-the-index-only")
def matches_the_index_only(runs: Any, ctx: Any) -> bool:
    """A shard whose index is in the group was promoted though it restarted since (a new incarnation)."""
    probes = ctx.extra.get("probes", {})
    return (
        probes.get("restarted-member") is True
        and probes.get("member-first-life") is True
        and probes.get("missed-metric-behind") is False  # it does look at the group
    )


@checks.evidence_for("promotes-by-time")
def promotes_by_time(runs: Any, ctx: Any) -> bool:
    """Promotes a shard that went STALE before the refit started though it is not in the group,
    and refuses the ones that went STALE after: the time decides, not the group."""
    probes = ctx.extra.get("probes", {})
    return (
        probes.get("missed-stale-before-start") is True
        and probes.get("missed-metric-behind") is False
        and probes.get("restarted-member") is False
    )


@checks.evidence_for("refuses-restarted-shards")
def refuses_restarted_shards(runs: Any, ctx: Any) -> bool:
    """A restarted shard that is in the group is refused, a first-life one is promoted, and a missed
    one is refused: promotion by incarnation 0, not by the group. And in the runs, every shard the
    refit wrote to and the rule kept out had restarted: a rule that kept out a first-life member
    made another mistake."""
    probes = ctx.extra.get("probes", {})
    refused = [d for d in _decisions(runs) if d["written"] and not d["promote"]]
    return (
        all(d["incarnation"] > 0 for d in refused)
        and probes.get("in-group-metric-current") is False
        and probes.get("member-first-life") is True
        and probes.get("missed-metric-behind") is False
    )
