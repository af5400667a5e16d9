"""The fleet controller model's own log (faultlines/fleet/controller.py) as a Chrome trace.

The fleet runs on its own kernel with its own EventLog, not on a miniray runtime, so it gets its
own exporter: `faultlines.fleet.fleet_timeline(fleet)` (or `fleet.timeline()`).
    pid 1 "controller": the train pump (train steps and refits as slices), the probe pump
          (probes, router pushes), faults and the run's end
    pid 2 "shards": one thread per shard, its ledger state (HEALTHY, SUSPECT, STALE, ...) as slices
Rollouts that were not served current weights are instants on their shard; served ones are not
drawn (one a second would bury everything else).
"""

from __future__ import annotations

from miniray.observe import Trace, finish

CONTROLLER, SHARDS = 1, 2
T_TRAIN, T_PROBE, T_EVENTS = 1, 2, 3


def build(fleet) -> list[dict]:
    tr = Trace()
    tr.process(CONTROLLER, "controller", 0)
    tr.process(SHARDS, "shards", 1)
    for tid, name in ((T_TRAIN, "train pump"), (T_PROBE, "probe pump"), (T_EVENTS, "faults and run")):
        tr.thread(CONTROLLER, tid, name)
    state = {}
    for s in fleet.shards:
        tr.thread(SHARDS, s.index + 1, f"shard {s.index}")
        state[s.index] = (0.0, "HEALTHY")
    train = refit = None
    for rec in fleet.log.records:
        t, f, kind = rec.time, rec.fields, rec.kind
        if kind == "shard.state":
            since, st = state[f["shard"]]
            tr.slice(st, "shard", since, t, SHARDS, f["shard"] + 1, {"shard": f["shard"]})
            state[f["shard"]] = (t, f["to"])
            tr.instant(f"{f['frm']} -> {f['to']}", "shard", t, SHARDS, f["shard"] + 1, f)
        elif kind == "train.start":
            train = (t, f)
        elif kind == "train.done" and train is not None:
            tr.slice(f"train step {f['step']}", "train", train[0], t, CONTROLLER, T_TRAIN, f)
            train = None
        elif kind == "refit.start":
            refit = (t, f)
        elif kind in ("refit.done", "refit.failed") and refit is not None:
            args = dict(refit[1], **f, outcome=kind.split(".")[1])
            tr.slice(
                f"refit {refit[1]['attempt']} v{refit[1]['version']}",
                "refit",
                refit[0],
                t,
                CONTROLLER,
                T_TRAIN,
                args,
            )
            refit = None
        elif kind in ("probe", "router.push"):
            tr.instant(
                kind if kind != "probe" else f"probe shard {f['shard']}: {f['result']}",
                kind,
                t,
                CONTROLLER,
                T_PROBE,
                f,
            )
        elif "shard" in f and kind != "fault":
            tr.instant(kind, kind.split(".")[0], t, SHARDS, f["shard"] + 1, f)
        else:
            tr.instant(kind, kind.split(".")[0], t, CONTROLLER, T_EVENTS, f)
            if kind == "fault":
                tr.instant(f"fault: {f.get('process')}", "fault", t, SHARDS, f["shard"] + 1, f)
    end = max([fleet.k.now] + [r.time for r in fleet.log.records[-1:]])
    for index, (since, st) in sorted(state.items()):
        tr.slice(st, "shard", since, end, SHARDS, index + 1, {"shard": index})
    if train is not None:
        tr.slice(
            f"train step {train[1]['step']}",
            "train",
            train[0],
            end,
            CONTROLLER,
            T_TRAIN,
            dict(train[1], unfinished=True),
        )
    if refit is not None:
        tr.slice(
            f"refit {refit[1]['attempt']} v{refit[1]['version']}",
            "refit",
            refit[0],
            end,
            CONTROLLER,
            T_TRAIN,
            dict(refit[1], unfinished=True),
        )
    for t, shard, outcome, weights in fleet.rollouts:
        if outcome != "served" and shard is not None:
            tr.instant(f"rollout {outcome}", "rollout", t, SHARDS, shard + 1, {"weights": weights})
        elif shard is None:
            tr.instant(f"rollout {outcome}", "rollout", t, CONTROLLER, T_EVENTS, {})
    return tr.to_list()


def fleet_timeline(fleet, filename: str | None = None):
    """The fleet's trace events, or None after writing them to `filename` as JSON."""
    return finish(build(fleet), filename)
