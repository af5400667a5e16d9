"""Seed 002's scenarios A, B, C and its "what waits for what" table, produced by the fleet model.

Every run: 4 shards, shard 2 fails, probe_interval_s 5, unhealthy_threshold 3, refit_timeout_s
300, a 360 s reload, training steps of 121 s each followed by a 12 s weight transfer (so refits
run at 121-133, 254-266, 387-399, 520-532 s when nothing goes wrong).

    from faultlines.fleet import scenarios as fs
    print(fs.timeline_text(fs.scenario_a()))
    print(fs.table_text(fs.waits_table()))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from miniray.sim import Record

from .controller import DEAD, HEALTHY, RESTARTING, STALE, SUSPECT, Fleet

HORIZON = 700.0
# The kinds a run's story is told with: faults, ledger changes, refits, the router, the run's end.
STORY_KINDS = (
    "fault",
    "shard.state",
    "refit.start",
    "refit.done",
    "refit.failed",
    "refit.blocked",
    "refit.recovered",
    "refit.deadline_stood_down",
    "refit.promoted_without_weights",
    "refit.kept_stale",
    "router.push",
    "run.failed",
)


def scenario_a(router: str = "native", crash_at: float = 12.0, **cfg) -> Fleet:
    """Shard 2 crashes between refits; it restarts, waits STALE, the next refit promotes it."""
    return Fleet(router=router, **cfg).crash(2, crash_at).run(HORIZON)


def scenario_b(fault: str = "hang", at: float = 124.0, **cfg) -> Fleet:
    """Shard 2 fails 3 s into the first refit (121-133 s): a hang, or a crash for comparison."""
    fleet = Fleet(**cfg)
    (fleet.hang if fault == "hang" else fleet.crash)(2, at)
    return fleet.run(HORIZON + 200)


def scenario_c(promote: str = "all_stale", crash_at: float = 28.0, **cfg) -> Fleet:
    """Shard 2 died earlier (28 s) and finishes restarting (390 s) inside the 387-399 s refit."""
    return Fleet(promote=promote, **cfg).crash(2, crash_at).run(HORIZON)


def hang_between_refits(at: float = 12.0, **cfg) -> Fleet:
    return Fleet(**cfg).hang(2, at).run(HORIZON)


def _when(t: float | None, what: str) -> float:
    if t is None:
        raise RuntimeError(f"the scenario never reached {what}: did its configuration change?")
    return t


def _measured() -> dict[str, Any]:
    """The times the table's rows are made of, from scenario A (native and gym routers) and a hang."""
    a = scenario_a()
    gym = scenario_a(router="gym")
    hang = hang_between_refits()
    m: dict[str, Any] = {"a": a, "hang": hang}
    m["dead"] = _when(a.first_state(2, DEAD), "shard 2 DEAD")
    m["restarting"] = _when(a.first_state(2, RESTARTING), "shard 2 RESTARTING")
    m["stale"] = stale = _when(a.first_state(2, STALE), "shard 2 STALE")
    m["healthy"] = healthy = _when(a.first_state(2, HEALTHY, after=stale), "shard 2 HEALTHY again")
    m["hang_dead"] = _when(hang.first_state(2, DEAD), "the hung shard DEAD")
    # Refits that completed while shard 2 was reloading: nobody waited for the restart.
    m["refits_during_reload"] = [
        r.time for r in a.log.of_kind("refit.done") if m["restarting"] < r.time < stale
    ]
    # The train pump waits on the transfer: the next step starts the instant the refit is done.
    m["first_done"] = first_done = a.log.of_kind("refit.done")[0]
    m["next_train"] = _when(a.first("train.start", after=first_done.time, step=2), "training step 2")
    m["served_after"] = _when(
        next((t for t, i, o, _ in a.rollouts if i == 2 and o == "served" and t >= healthy), None),
        "a rollout served by shard 2",
    )
    gym_stale = _when(gym.first_state(2, STALE), "shard 2 STALE (gym)")
    m["gym_healthy"] = gym_healthy = _when(
        gym.first_state(2, HEALTHY, after=gym_stale), "shard 2 HEALTHY again (gym)"
    )
    m["pushed"] = _when(gym.first("router.push", after=gym_healthy), "a router push after the promotion")
    return m


def waits_table() -> list[dict]:
    """Each row of the seed's table, with what it waits for and how long it took in the model."""
    m = _measured()
    return _noticing(m) + _recovering(m)


def _noticing(m: dict[str, Any]) -> list[dict]:
    """The rows up to the restart's start: the failure noticed, the restart begun."""
    dead, hang, hang_dead, restarting = m["dead"], m["hang"], m["hang_dead"], m["restarting"]
    return [
        dict(
            step="Notice a crash",
            runs_on="probe pump",
            waits_for="the next probe tick",
            seed="<= 5s",
            measured=dead - 12.0,
            detail=f"crash at 12 s, DEAD at {dead:g} s",
        ),
        dict(
            step="Notice a hang",
            runs_on="probe pump",
            waits_for="three consecutive failed probes",
            seed="~ 15s",
            measured=hang_dead - 12.0,
            detail=f"hang at 12 s, SUSPECT at {hang.first_state(2, SUSPECT):g} s, DEAD at {hang_dead:g} s",
        ),
        dict(
            step="Start the restart",
            runs_on="probe pump",
            waits_for="nothing: same tick as the verdict",
            seed="immediate",
            measured=restarting - dead,
            detail=f"RESTARTING at {restarting:g} s",
        ),
    ]


def _recovering(m: dict[str, Any]) -> list[dict]:
    """The rows from the reload to traffic again, with the native calls and the Gym router."""
    restarting, stale, healthy = m["restarting"], m["stale"], m["healthy"]
    first_done, refits_during_reload = m["first_done"], m["refits_during_reload"]
    return [
        dict(
            step="Reload the model",
            runs_on="a thread",
            waits_for="nothing: nobody awaits it",
            seed="minutes",
            measured=stale - restarting,
            detail=f"{len(refits_during_reload)} refits completed meanwhile, at "
            f"{', '.join(f'{t:g}' for t in refits_during_reload)} s",
        ),
        dict(
            step="Transfer the weights",
            runs_on="a thread (train pump awaits it)",
            waits_for="-",
            seed="seconds",
            measured=first_done["took"],
            detail=f"refit done at {first_done.time:g} s, next training step started at {m['next_train']:g} s",
        ),
        dict(
            step="Rejoin the collective",
            runs_on="train pump",
            waits_for="the next refit",
            seed="one training step",
            measured=healthy - stale,
            detail=f"STALE at {stale:g} s, promoted at {healthy:g} s",
        ),
        dict(
            step="Take traffic again - native calls",
            runs_on="rollout pump",
            waits_for="nothing: the selector reads the ledger live",
            seed="immediate",
            measured=m["served_after"] - healthy,
            detail=f"HEALTHY at {healthy:g} s, first rollout it served at {m['served_after']:g} s "
            "(round robin, one rollout a second)",
        ),
        dict(
            step="Take traffic again - via the Gym router",
            runs_on="probe pump",
            waits_for="the next tick after it is HEALTHY",
            seed="<= 5s",
            measured=m["pushed"] - m["gym_healthy"],
            detail=f"HEALTHY at {m['gym_healthy']:g} s, router told at {m['pushed']:g} s",
        ),
    ]


def table_text(rows: list[dict]) -> str:
    head = f"{'Step':<40} {'Runs on':<34} {'Seed says':<18} {'Model':>8}  Detail"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['step']:<40} {r['runs_on']:<34} {r['seed']:<18} {r['measured']:>7g}s  {r['detail']}"
        )
    return "\n".join(lines)


def refit_cost(fleet: Fleet, step: int = 1) -> float:
    """Seconds from a step's first refit start to the end of its last attempt (12 s when clean)."""
    starts = [r.time for r in fleet.log.of_kind("refit.start") if r["version"] == step]
    ends = [r.time for r in fleet.log.of_kind("refit.done", "refit.failed") if r.time >= starts[0]]
    done = [r.time for r in fleet.log.of_kind("refit.done") if r["version"] == step]
    return (done[0] if done else ends[-1]) - starts[0]


def story(
    fleet: Any, shards: Iterable[int], kinds: Iterable[str] = STORY_KINDS, until: float | None = None
) -> Iterator[Record]:
    """A run's records of the given kinds in time order, up to virtual time `until`: those about no
    shard in particular (refits, the router) and those about the given shards.

    Any fleet shaped like Fleet works (its `log` is read), so course models that are handed the
    fleet class read runs the same way.
    """
    shards, kinds = set(shards), set(kinds)
    for r in fleet.log.records:
        if until is not None and r.time > until:
            break
        if r.kind in kinds and ("shard" not in r.fields or r["shard"] in shards):
            yield r


def timeline_text(fleet: Fleet, shards: tuple = (0, 2)) -> str:
    """The shards' state changes and faults and every refit event, one line each, in time order."""
    return "\n".join(r.line() for r in story(fleet, shards))


def main() -> None:
    """`python -m faultlines.fleet.scenarios`: the three timelines and the table."""
    runs = [
        ("Scenario A: shard 2 crashes between refits (12 s)", scenario_a()),
        ("Scenario B: shard 2 hangs during a refit (124 s)", scenario_b("hang")),
        ("Scenario B': shard 2 crashes during a refit (124 s)", scenario_b("crash")),
        ("Scenario C: restart finishes mid-refit, shipped promotion (bug)", scenario_c("all_stale")),
        (
            "Scenario C: restart finishes mid-refit, promote only refitted shards (fix)",
            scenario_c("refitted"),
        ),
    ]
    for title, fleet in runs:
        print(f"== {title}")
        print(timeline_text(fleet, shards=(0, 2)))
        print()
    print("== What waits for what")
    print(table_text(waits_table()))


if __name__ == "__main__":
    main()
