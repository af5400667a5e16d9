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


class _Builder:
    """The trace, fed the fleet's records one by one (its own kinds: the fleet's catalogue)."""

    def __init__(self, fleet) -> None:
        self.tr = tr = Trace()
        tr.process(CONTROLLER, "controller", 0)
        tr.process(SHARDS, "shards", 1)
        for tid, name in ((T_TRAIN, "train pump"), (T_PROBE, "probe pump"), (T_EVENTS, "faults and run")):
            tr.thread(CONTROLLER, tid, name)
        self.state: dict[int, tuple[float, str]] = {}  # shard -> (since, its ledger state)
        for s in fleet.shards:
            tr.thread(SHARDS, s.index + 1, f"shard {s.index}")
            self.state[s.index] = (0.0, "HEALTHY")
        self.train: tuple[float, dict] | None = None  # the train step running: (since, its fields)
        self.refit: tuple[float, dict] | None = None

    def feed(self, t: float, kind: str, f: dict) -> None:
        handler = _KINDS.get(kind)
        (handler or _Builder.other)(self, t, kind, f)

    def other(self, t: float, kind: str, f: dict) -> None:
        """An instant: on its shard's thread, or the controller's (a fault, drawn on both)."""
        if "shard" in f and kind != "fault":
            self.tr.instant(kind, kind.split(".")[0], t, SHARDS, f["shard"] + 1, f)
        else:
            self.tr.instant(kind, kind.split(".")[0], t, CONTROLLER, T_EVENTS, f)
            if kind == "fault":
                self.tr.instant(f"fault: {f.get('process')}", "fault", t, SHARDS, f["shard"] + 1, f)

    def shard_state(self, t: float, kind: str, f: dict) -> None:
        since, st = self.state[f["shard"]]
        self.tr.slice(st, "shard", since, t, SHARDS, f["shard"] + 1, {"shard": f["shard"]})
        self.state[f["shard"]] = (t, f["to"])
        self.tr.instant(f"{f['frm']} -> {f['to']}", "shard", t, SHARDS, f["shard"] + 1, f)

    def train_done(self, t: float, kind: str, f: dict) -> None:
        if self.train is None:
            return self.other(t, kind, f)
        self.tr.slice(f"train step {f['step']}", "train", self.train[0], t, CONTROLLER, T_TRAIN, f)
        self.train = None

    def refit_end(self, t: float, kind: str, f: dict) -> None:
        if self.refit is None:
            return self.other(t, kind, f)
        since, start = self.refit
        args = dict(start, **f, outcome=kind.split(".")[1])
        self.tr.slice(
            f"refit {start['attempt']} v{start['version']}", "refit", since, t, CONTROLLER, T_TRAIN, args
        )
        self.refit = None

    def probe(self, t: float, kind: str, f: dict) -> None:
        name = kind if kind != "probe" else f"probe shard {f['shard']}: {f['result']}"
        self.tr.instant(name, kind, t, CONTROLLER, T_PROBE, f)

    def close(self, end: float, rollouts) -> list[dict]:
        tr = self.tr
        for index, (since, st) in sorted(self.state.items()):
            tr.slice(st, "shard", since, end, SHARDS, index + 1, {"shard": index})
        if self.train is not None:
            since, f = self.train
            tr.slice(
                f"train step {f['step']}", "train", since, end, CONTROLLER, T_TRAIN, dict(f, unfinished=True)
            )
        if self.refit is not None:
            since, f = self.refit
            name = f"refit {f['attempt']} v{f['version']}"
            tr.slice(name, "refit", since, end, CONTROLLER, T_TRAIN, dict(f, unfinished=True))
        for t, shard, outcome, weights in rollouts:
            if outcome != "served" and shard is not None:
                tr.instant(f"rollout {outcome}", "rollout", t, SHARDS, shard + 1, {"weights": weights})
            elif shard is None:
                tr.instant(f"rollout {outcome}", "rollout", t, CONTROLLER, T_EVENTS, {})
        return tr.to_list()


def _start_train(b: _Builder, t: float, kind: str, f: dict) -> None:
    b.train = (t, f)


def _start_refit(b: _Builder, t: float, kind: str, f: dict) -> None:
    b.refit = (t, f)


_KINDS = {
    "shard.state": _Builder.shard_state,
    "train.start": _start_train,
    "train.done": _Builder.train_done,
    "refit.start": _start_refit,
    "refit.done": _Builder.refit_end,
    "refit.failed": _Builder.refit_end,
    "probe": _Builder.probe,
    "router.push": _Builder.probe,
}


def build(fleet) -> list[dict]:
    b = _Builder(fleet)
    for rec in fleet.log.records:
        b.feed(rec.time, rec.kind, rec.fields)
    end = max([fleet.k.now] + [r.time for r in fleet.log.records[-1:]])
    return b.close(end, fleet.rollouts)


def fleet_timeline(fleet, filename: str | None = None):
    """The fleet's trace events, or None after writing them to `filename` as JSON."""
    return finish(build(fleet), filename)
