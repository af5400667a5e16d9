"""A generation-fleet controller on the virtual clock: probes, restarts, refits, re-entry (seed 002).

A model of the SingleController of NeMo-RL PR #3592, small enough to read in one sitting. It runs
directly on `miniray.kernel.Kernel` (its own clock, no tasks): every loop is a callback that
reschedules itself, so "runs on a thread, nobody awaits it" is literally "a timer nobody waits
for", and "the train pump awaits the weight transfer" is "the next training step is scheduled
from the transfer's completion callback".

Shard states (the ledger): HEALTHY and SUSPECT serve; STALE is in the refit group but takes no
traffic (its weights are not current); RESTARTING is absent; DEAD is momentary (the supervisor
starts the restart on the same probe tick). The probe walks serving shards only (HEALTHY,
SUSPECT), so a STALE shard is unwatched until a refit promotes it.

Modelling choices, each from the seed:
- a crash is conclusive at the next probe; a hang needs `unhealthy_threshold` timeouts in a row;
- a crash during a refit fails the collective after `nccl_error_s` (the dead peer's sockets
  close), and its confirmed death stands the refit deadline down; a hang blocks the collective
  until `refit_timeout_s` aborts it, because nothing connects the ledger's verdict to the
  collective (killing the hung worker for the restart does not unblock it either);
- after a failed first transfer: probe on the spot, mark the survivors STALE if it was an abort
  (partial weights), rebuild the group without absent shards (or condemn the single SUSPECT),
  retry once; a second failure ends the run;
- promotion: `promote="all_stale"` is the shipped bug (every STALE shard is promoted, even one
  that finished restarting mid-refit and got no weights); `promote="refitted"` is the fix (only
  shards the refit wrote to). The weight-version metric is written by the same call, so in the
  buggy mode it reports the refit's version for a shard holding the checkpoint; a shard the refit
  wrote to reports the version it took.
- rollouts: `router="native"` picks from the ledger live per request; `router="gym"` uses the
  URL list the probe pump pushes after each tick (a restarted engine binds a new port).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from miniray.sim import EventLog, Kernel, Timer

from .trace import fleet_timeline

HEALTHY, SUSPECT, DEAD, RESTARTING, STALE = "HEALTHY", "SUSPECT", "DEAD", "RESTARTING", "STALE"
SERVING = (HEALTHY, SUSPECT)
IN_GROUP = (HEALTHY, SUSPECT, STALE)
CHECKPOINT = 0  # the weight version a freshly loaded engine holds: whatever was on disk


@dataclass
class FleetConfig:
    shards: int = 4
    probe_interval_s: float = 5.0
    unhealthy_threshold: int = 3
    refit_timeout_s: float = 300.0
    reload_s: float = 360.0  # a restart reloads the model: minutes
    train_s: float = 121.0  # step 5, training the policy (odd on purpose: off the 5 s probe grid)
    transfer_s: float = 12.0  # step 6, the weight transfer: seconds
    nccl_error_s: float = 2.0  # a crashed peer's closed sockets fail the collective this fast
    rollout_interval_s: float = 1.0
    router: str = "native"  # "native" (selector reads the ledger) | "gym" (router holds URLs)
    promote: str = "all_stale"  # "all_stale" (the bug) | "refitted" (the fix)
    steps: int = 100

    def __post_init__(self):
        if self.router not in ("native", "gym"):
            raise ValueError(f"router must be 'native' or 'gym', not {self.router!r}")
        if self.promote not in ("all_stale", "refitted"):
            raise ValueError(
                f"promote must be 'all_stale' (the bug) or 'refitted' (the fix), not {self.promote!r}"
            )


class Shard:
    def __init__(self, index: int):
        self.index = index
        self.state = HEALTHY
        self.process = "up"  # up | crashed | hung | down (killed for a restart)
        self.failures = 0
        self.incarnation = 0
        self.port = 8000 + 10 * index
        self.weights = CHECKPOINT
        self.restarting = False


@dataclass
class Refit:
    attempt: str  # "first" | "retry"
    version: int
    members: list  # [(shard index, incarnation)]: the group settled at the start
    started: float
    deadline: Timer | None = None
    done: Timer | None = None
    error: Timer | None = None
    over: bool = False
    written: set = field(default_factory=set)


class Fleet:
    def __init__(self, config: FleetConfig | None = None, kernel: Kernel | None = None, **overrides):
        self.cfg = config or FleetConfig(**overrides)
        self.k = kernel or Kernel()
        self.log = EventLog()
        self.shards = [Shard(i) for i in range(self.cfg.shards)]
        self.step = 0
        self.version = CHECKPOINT  # the trainer's policy
        self.published = CHECKPOINT  # the version the last completed refit sent
        self.reported: dict[int, int] = {s.index: CHECKPOINT for s in self.shards}  # the metric
        self.refit: Refit | None = None
        self.router = [(s.index, s.port) for s in self.shards]
        self.rollouts: list[tuple] = []  # (time, shard, outcome, weights)
        self.stopped = False
        self.started = False
        self._rr = 0

    def emit(self, kind: str, **fields) -> None:
        self.log.emit(self.k.now, kind, **fields)

    def serving(self) -> list[Shard]:
        return [s for s in self.shards if s.state in SERVING]

    def _set(self, s: Shard, state: str, why: str) -> None:
        if s.state != state:
            self.emit("shard.state", shard=s.index, frm=s.state, to=state, why=why)
            s.state = state

    # -- faults ---------------------------------------------------------------------------------
    def crash(self, shard: int, at: float) -> Fleet:
        self.k.at(at, self._fault, shard, "crashed", label="crash")
        return self

    def hang(self, shard: int, at: float) -> Fleet:
        self.k.at(at, self._fault, shard, "hung", label="hang")
        return self

    def _fault(self, index: int, process: str) -> None:
        s = self.shards[index]
        if s.process != "up":
            return
        s.process = process
        self.emit("fault", shard=index, process=process)
        self._peer_fault(s)

    def _peer_fault(self, s: Shard) -> None:
        """A member of an in-flight transfer failed: the collective cannot complete."""
        r = self.refit
        if r is None or r.over or (s.index, s.incarnation) not in r.members:
            return
        if r.done is not None:
            r.done.cancel()
            r.done = None
            self.emit("refit.blocked", attempt=r.attempt, on=s.index, process=s.process)
        if s.process == "crashed" and r.error is None:
            r.error = self.k.schedule(self.cfg.nccl_error_s, self._refit_failed, r, "nccl_error")

    # -- running ----------------------------------------------------------------------------------
    def run(self, until: float) -> Fleet:
        if not self.started:
            self.started = True
            self.k.schedule(self.cfg.probe_interval_s, self._probe_tick, label="probe-pump")
            self.k.schedule(0.0, self._train_step, label="train-pump")
            self.k.schedule(self.cfg.rollout_interval_s, self._rollout_tick, label="rollout-pump")
        self.k.run(until)
        return self

    # -- the fleet probe pump: probe, then supervisor.tick(), then push to the router --------------
    def _probe_tick(self) -> None:
        for s in self.serving():
            self._probe(s)
        self._supervisor_tick()
        if self.cfg.router == "gym":
            self._push_router()
        self.k.schedule(self.cfg.probe_interval_s, self._probe_tick, label="probe-pump")

    def _probe(self, s: Shard) -> None:
        if s.process == "crashed":  # RayActorError: the process is really gone
            self.emit("probe", shard=s.index, result="RayActorError")
            self._mark_dead(s, "crash: conclusive at one probe")
        elif s.process == "hung":
            s.failures += 1
            self.emit("probe", shard=s.index, result="timeout", failures=s.failures)
            if s.failures >= self.cfg.unhealthy_threshold:
                self._mark_dead(s, f"hang: {s.failures} consecutive timeouts")
            else:
                self._set(s, SUSPECT, "probe timeout")
        else:
            s.failures = 0
            self._set(s, HEALTHY, "probe answered")

    def _mark_dead(self, s: Shard, why: str) -> None:
        self._set(s, DEAD, why)
        r = self.refit
        if (
            s.process == "crashed"
            and r is not None
            and not r.over
            and r.deadline is not None
            and (s.index, s.incarnation) in r.members
        ):
            # A confirmed death: let NCCL unblock the survivors itself rather than break the
            # communicator (which would strand work queued on the trainers' streams).
            r.deadline.cancel()
            r.deadline = None
            self.emit("refit.deadline_stood_down", attempt=r.attempt, shard=s.index)

    def _supervisor_tick(self) -> None:
        for s in self.shards:
            if s.state == DEAD and not s.restarting:
                s.restarting = True
                s.process = "down"  # first act: kill the worker, which may be hung rather than gone
                self._set(s, RESTARTING, "supervisor.tick: restart on a thread, nobody awaits it")
                self.k.schedule(self.cfg.reload_s, self._restart_done, s, label="restart")

    def _restart_done(self, s: Shard) -> None:
        s.restarting = False
        s.incarnation += 1
        s.port += 1  # the new engine binds a new port
        s.process = "up"
        s.failures = 0
        s.weights = CHECKPOINT
        self._set(s, STALE, f"mark_loaded: model loaded from disk, new port {s.port}")

    def _push_router(self) -> None:
        urls = [(s.index, s.port) for s in self.serving()]
        if urls != self.router:
            self.router = urls
            self.emit("router.push", urls=[f"{i}:{p}" for i, p in urls])

    # -- the train pump: train, then refit (awaited) -----------------------------------------------
    def _train_step(self) -> None:
        if self.stopped or self.step >= self.cfg.steps:
            return
        self.step += 1
        self.emit("train.start", step=self.step)
        self.k.schedule(self.cfg.train_s, self._train_done, label="train")

    def _train_done(self) -> None:
        self.version = self.step
        self.emit("train.done", step=self.step, version=self.version)
        members = [(s.index, s.incarnation) for s in self.shards if s.state in IN_GROUP]
        self._refit_start("first", members)

    def _refit_start(self, attempt: str, members: list) -> None:
        r = Refit(attempt, self.version, members, self.k.now)
        self.refit = r
        self.emit("refit.start", attempt=attempt, version=r.version, group=[i for i, _ in members])
        r.deadline = self.k.schedule(
            self.cfg.refit_timeout_s, self._refit_failed, r, "abort", label="deadline"
        )
        r.done = self.k.schedule(self.cfg.transfer_s, self._refit_done, r, label="transfer")
        for i, _ in members:  # a member that failed before the ledger noticed blocks it from the start
            if self.shards[i].process != "up":
                self._peer_fault(self.shards[i])

    def _refit_done(self, r: Refit) -> None:
        if r.over:
            return
        r.over = True
        if r.deadline is not None:
            r.deadline.cancel()
        for i, inc in r.members:
            s = self.shards[i]
            if s.incarnation == inc and s.process == "up":
                s.weights = r.version
                self.reported[i] = r.version  # report_refit for a shard that took the transfer
                r.written.add(i)
        self.published = r.version
        self.emit(
            "refit.done",
            attempt=r.attempt,
            version=r.version,
            written=sorted(r.written),
            took=self.k.now - r.started,
        )
        self._promote(r)
        self.refit = None
        self._train_step()  # the train pump awaited the transfer: only now the next step starts

    def _promote(self, r: Refit) -> None:
        for s in self.shards:
            if s.state != STALE:
                continue
            if self.cfg.promote == "refitted" and s.index not in r.written:
                self.emit("refit.kept_stale", shard=s.index, why="not in the group this refit wrote to")
                continue
            self._set(s, HEALTHY, "promoted by refit")
            self.reported[s.index] = r.version  # report_refit: the metric trusts the same call
            if s.weights != r.version:
                self.emit(
                    "refit.promoted_without_weights", shard=s.index, holds=s.weights, reported=r.version
                )

    def _refit_failed(self, r: Refit, reason: str) -> None:
        if r.over:
            return
        r.over = True
        for t in (r.deadline, r.done, r.error):
            if t is not None:
                t.cancel()
        for i, inc in r.members:  # the transfer stopped mid-flight: receivers hold a mix
            s = self.shards[i]
            if s.incarnation == inc and s.process == "up":
                s.weights = "partial"
        self.emit("refit.failed", attempt=r.attempt, reason=reason, after=self.k.now - r.started)
        self.refit = None
        if r.attempt == "retry":
            self._stop("second refit failure: a fault, not a membership problem")
            return
        self._recover(r, reason)

    def _recover(self, r: Refit, reason: str) -> None:
        for s in self.serving():  # 1: probe on the spot: the abort is an event, the tick a clock
            self._probe(s)
        absent = [
            i
            for i, inc in r.members
            if self.shards[i].state in (DEAD, RESTARTING) or self.shards[i].incarnation != inc
        ]
        suspects = [i for i, _ in r.members if self.shards[i].state == SUSPECT]
        if reason == "abort":  # 2: partial weights must not serve until a refit completes
            for i, _inc in r.members:
                s = self.shards[i]
                if i not in absent and s.state in SERVING:
                    self._set(s, STALE, "mark_weights_partial: the abort left a mix of weights")
        if not absent:
            if len(suspects) != 1:
                self._stop(
                    f"refit failed with no absent shard and {len(suspects)} suspects: "
                    "condemning a healthy shard by guessing is worse than stopping"
                )
                return
            self._mark_dead(self.shards[suspects[0]], "condemned as the silent participant")
            absent = suspects
        members = [(i, inc) for i, inc in r.members if i not in absent]  # 3: rebuild without them
        self.emit("refit.recovered", absent=absent, group=[i for i, _ in members])
        self._refit_start("retry", members)

    def _stop(self, why: str) -> None:
        self.stopped = True
        self.emit("run.failed", why=why)

    # -- the rollout pump: generation never pauses ---------------------------------------------------
    def _rollout_tick(self) -> None:
        if self.stopped:
            return
        if self.cfg.router == "native":
            targets = [(s.index, s.port) for s in self.serving()]  # read live, nothing cached
        else:
            targets = list(self.router)
        if targets:
            i, port = targets[self._rr % len(targets)]
            self._rr += 1
            s = self.shards[i]
            if s.port != port or s.process in ("crashed", "down"):
                outcome = "refused"
            elif s.process == "hung":
                outcome = "timeout"
            else:
                outcome = "served" if s.weights == self.published else "served_stale_weights"
            self.rollouts.append((self.k.now, i, outcome, s.weights))
        else:
            self.rollouts.append((self.k.now, None, "no_serving_shard", None))
        self.k.schedule(self.cfg.rollout_interval_s, self._rollout_tick, label="rollout-pump")

    # -- reading the run ------------------------------------------------------------------------------
    def transitions(self, shard: int) -> list[tuple[float, str, str]]:
        """(time, state, why) for each state change of one shard, starting from HEALTHY at 0."""
        out = [(0.0, HEALTHY, "start")]
        out += [(r.time, r["to"], r["why"]) for r in self.log.of_kind("shard.state") if r["shard"] == shard]
        return out

    def first(self, kind: str, after: float = -1.0, **match) -> float | None:
        for r in self.log.records:
            if r.kind == kind and r.time >= after and all(r.get(k) == v for k, v in match.items()):
                return r.time
        return None

    def timeline(self, filename: str | None = None):
        """This run as a Chrome trace (Perfetto): see faultlines/fleet/trace.py."""
        return fleet_timeline(self, filename)

    def first_state(self, shard: int, state: str, after: float = -1.0) -> float | None:
        return next((t for t, st, _ in self.transitions(shard) if st == state and t >= after), None)
