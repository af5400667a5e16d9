"""Reading a run of the generation-fleet controller (seed 002) for lesson 10.

The fleet controller itself is passed in (`fleet_cls`), not imported: any class shaped like it
works (constructor taking FleetConfig fields as keywords; `crash`, `hang`, `run`, `shards`,
`log`, `rollouts`, `transitions`). A run's log is read as the seed's scenarios read it
(faultlines.fleet.scenarios.story).

What a learner reads off a run:
    segments()   each shard's ledger state over time, as (start, end, state) spans
    refits()     each weight transfer as a span, with how it ended
    observe()    one run turned into the numbers the lesson quotes (FleetRun)
A "blip" is a course addition: a shard that stops answering for a few seconds and then answers
again (a GC pause, a slow disk). The controller only knows crash and hang; a blip is a hang that
ends, so `blip()` schedules the hang and, later, the recovery on the fleet's own clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from faultlines.fleet import scenarios

STATES = ("HEALTHY", "SUSPECT", "DEAD", "RESTARTING", "STALE")
FAULTS = ("crash", "hang", "blip")
HORIZON = 700.0
BAD_ROLLOUTS = ("refused", "timeout", "served_stale_weights")


@dataclass(frozen=True)
class Span:
    start: float
    end: float
    label: str


@dataclass
class FleetRun:
    """What one run of the fleet says about the faulty shard."""

    fault: str
    fault_at: float
    probe_interval_s: float
    unhealthy_threshold: int
    promote: str
    suspect_at: float | None
    dead_at: float | None
    stale_at: float | None
    healthy_at: float | None  # back to HEALTHY after the fault (None: it never left, or never came back)
    rollouts: dict[str, int]  # outcome -> count, for rollouts routed to the faulty shard
    stale_weight_rollouts: int
    promoted_without_weights: list[tuple[float, Any, int]]  # (time, version held, version the metric says)
    longest_refit_s: float  # the longest a training step waited on its weight transfer (12 s when clean)
    run_failed: str | None
    segments: dict[int, list[Span]] = field(default_factory=dict)
    weights: list[Span] = field(default_factory=list)  # what the faulty shard holds over time
    refits: list[Span] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    @property
    def notice_s(self) -> float | None:
        """Seconds from the fault to the ledger's verdict DEAD."""
        return None if self.dead_at is None else self.dead_at - self.fault_at

    @property
    def out_of_service_s(self) -> float | None:
        """Seconds from the fault until the shard serves again (None if it never does)."""
        return None if self.healthy_at is None else self.healthy_at - self.fault_at


def blip(fleet: Any, shard: int, at: float, duration: float) -> Any:
    """The shard stops answering at `at` and answers again `duration` seconds later, unless the
    supervisor killed it for a restart meanwhile (then the restart owns it)."""

    def recover() -> None:
        s = fleet.shards[shard]
        if s.process == "hung":
            s.process = "up"
            fleet.emit("fault.recovered", shard=shard, after=duration)

    fleet.hang(shard, at)
    fleet.k.at(at + duration, recover, label="blip-ends")
    return fleet


def segments(fleet: Any, shard: int, horizon: float) -> list[Span]:
    """The shard's ledger states as spans; momentary states (DEAD) get zero length."""
    changes = fleet.transitions(shard)
    out = []
    for (t, state, _), nxt in zip(changes, changes[1:] + [(horizon, None, None)]):
        out.append(Span(t, min(nxt[0], horizon), state))
    return out


def refits(fleet: Any, horizon: float) -> list[Span]:
    """Each weight transfer: its start, its end, and `v3 done`, `v1 abort` or `v2 retry done`."""
    out, open_ = [], None
    for r in fleet.log.records:
        if r.kind == "refit.start":
            open_ = r
        elif r.kind in ("refit.done", "refit.failed") and open_ is not None:
            how = "done" if r.kind == "refit.done" else r["reason"]
            tag = "retry " if open_["attempt"] == "retry" else ""
            out.append(Span(open_.time, r.time, f"v{open_['version']} {tag}{how}"))
            open_ = None
    if open_ is not None:
        out.append(Span(open_.time, horizon, f"v{open_['version']} in flight"))
    return out


def weight_spans(fleet: Any, shard: int, horizon: float) -> list[Span]:
    """What the shard's engine holds: CURRENT (a refit wrote it), NONE (no engine) or CHECKPOINT
    (reloaded from disk, no refit since). The bug shows as HEALTHY over CHECKPOINT."""
    out: list[Span] = []
    since, held = 0.0, "CURRENT"

    def change(t: float, new: str) -> None:
        nonlocal since, held
        if new != held:
            out.append(Span(since, t, held))
            since, held = t, new

    for r in fleet.log.records:
        if r.kind == "shard.state" and r["shard"] == shard:
            if r["to"] == "RESTARTING":
                change(r.time, "NONE")
            elif r["frm"] == "RESTARTING" and r["to"] == "STALE":
                change(r.time, "CHECKPOINT")
        elif r.kind == "refit.done" and shard in r["written"]:
            change(r.time, "CURRENT")
        elif r.kind == "refit.failed" and held == "CURRENT":
            change(r.time, "PARTIAL")
    out.append(Span(since, horizon, held))
    return out


# The seed's story, plus what lesson 10 adds: a blip's end, and the probes that failed.
KEEP = (*scenarios.STORY_KINDS, "fault.recovered", "probe")


def event_lines(fleet: Any, shard: int, until: float | None = None) -> list[str]:
    """The run's log for one story: the faulty shard's events and every refit, in time order."""
    return [
        f"{r.time:7.1f} s  {r.kind:<32} " + " ".join(_field(k, v) for k, v in r.fields.items())
        for r in scenarios.story(fleet, (shard,), KEEP, until)
        if r.kind != "probe" or r["result"] in ("timeout", "RayActorError")
    ]


def event_lines_of(run: FleetRun, until: float | None = None) -> list[str]:
    """A FleetRun's stored log lines, up to virtual time `until`."""
    if until is None:
        return list(run.events)
    return [line for line in run.events if float(line.split(" s ", 1)[0]) <= until]


def _field(key: str, value: Any) -> str:
    if isinstance(value, list):
        value = "[" + ",".join(str(v) for v in value) + "]"
    elif isinstance(value, float):
        value = f"{value:g}"
    return f"{key}={value}"


def observe(
    fleet_cls: Any,
    fault: str = "crash",
    fault_at: float = 12.0,
    probe_interval_s: float = 5.0,
    unhealthy_threshold: int = 3,
    promote: str = "all_stale",
    blip_s: float = 8.0,
    horizon: float = HORIZON,
    shard: int = 2,
    **config: Any,
) -> FleetRun:
    """Run the fleet with one fault on `shard` and read what happened to it."""
    if fault not in FAULTS:
        raise ValueError(f"fault must be one of {', '.join(FAULTS)}, not {fault!r}")
    if probe_interval_s <= 0 or unhealthy_threshold < 1:
        raise ValueError("probe_interval_s must be > 0 and unhealthy_threshold >= 1")
    fleet = fleet_cls(
        probe_interval_s=probe_interval_s, unhealthy_threshold=unhealthy_threshold, promote=promote, **config
    )
    if fault == "crash":
        fleet.crash(shard, fault_at)
    elif fault == "hang":
        fleet.hang(shard, fault_at)
    else:
        blip(fleet, shard, fault_at, blip_s)
    fleet.run(horizon)
    return read(fleet, fault, fault_at, shard, horizon)


def read(fleet: Any, fault: str, fault_at: float, shard: int = 2, horizon: float = HORIZON) -> FleetRun:
    changes = fleet.transitions(shard)

    def first(state: str, after: float = fault_at) -> float | None:
        return next((t for t, st, _ in changes if st == state and t >= after), None)

    left = next((t for t, st, _ in changes if st != "HEALTHY" and t >= fault_at), None)
    healthy = first("HEALTHY", left) if left is not None else None
    counts: dict[str, int] = {}
    for t, i, outcome, _ in fleet.rollouts:
        if i == shard and t >= fault_at:
            counts[outcome] = counts.get(outcome, 0) + 1
    failed = [r["why"] for r in fleet.log.of_kind("run.failed")]
    cfg = fleet.cfg
    return FleetRun(
        fault=fault,
        fault_at=fault_at,
        probe_interval_s=cfg.probe_interval_s,
        unhealthy_threshold=cfg.unhealthy_threshold,
        promote=cfg.promote,
        suspect_at=first("SUSPECT"),
        dead_at=first("DEAD"),
        stale_at=first("STALE"),
        healthy_at=healthy,
        rollouts=counts,
        stale_weight_rollouts=counts.get("served_stale_weights", 0),
        promoted_without_weights=[
            (r.time, r["holds"], r["reported"])
            for r in fleet.log.of_kind("refit.promoted_without_weights")
            if r["shard"] == shard
        ],
        longest_refit_s=longest_refit(fleet),
        run_failed=failed[0] if failed else None,
        segments={s.index: segments(fleet, s.index, horizon) for s in fleet.shards},
        refits=refits(fleet, horizon),
        weights=weight_spans(fleet, shard, horizon),
        events=event_lines(fleet, shard),
    )


def longest_refit(fleet: Any) -> float:
    """Seconds from a version's first transfer start to its last attempt's end, worst version."""
    first: dict[int, float] = {}
    worst = 0.0
    for r in fleet.log.records:
        if r.kind == "refit.start":
            first.setdefault(r["version"], r.time)
        elif r.kind in ("refit.done", "refit.failed"):
            version = max(first) if first else None
            if version is not None:
                worst = max(worst, r.time - first[version])
    return worst


def summary_rows(run: FleetRun) -> list[tuple[str, str]]:
    """The run as (question, answer) rows: what the widget's table and the notebook print."""

    def at(t: float | None) -> str:
        return "never" if t is None else f"{t:g} s"

    def after(t: float | None) -> str:
        return "" if t is None else f" ({t - run.fault_at:g} s after the fault)"

    bad = {k: v for k, v in run.rollouts.items() if k in BAD_ROLLOUTS}
    return [
        ("fault", f"{run.fault} of shard 2 at {run.fault_at:g} s"),
        ("knobs", f"probe every {run.probe_interval_s:g} s, threshold {run.unhealthy_threshold}"),
        ("first SUSPECT", at(run.suspect_at) + after(run.suspect_at)),
        ("DEAD (restart starts)", at(run.dead_at) + after(run.dead_at)),
        ("STALE (reloaded, no traffic)", at(run.stale_at)),
        ("HEALTHY again", at(run.healthy_at) + after(run.healthy_at)),
        (
            "rollouts that failed or read old weights",
            ", ".join(f"{k} {v}" for k, v in sorted(bad.items())) or "0",
        ),
        ("longest wait on a weight transfer", f"{run.longest_refit_s:g} s"),
        (
            "promoted without current weights",
            "; ".join(
                f"at {t:g} s: holds v{held}, metric says v{said}"
                for t, held, said in run.promoted_without_weights
            )
            or "no",
        ),
        ("run", run.run_failed or "kept going"),
    ]


def summary_text(run: FleetRun) -> str:
    rows = summary_rows(run)
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
