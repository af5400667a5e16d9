"""fault14 checks: a training job on a spot node uses its preemption notice, and still survives
a crash that gives none.

The job is the learner's `train`, run by a launcher as a Ray task (`job`, max_retries=3) that
submits it again whenever it returns None (it stopped for a notice). The `preempt` move is a
preemption with notice (miniray's preempt_node: the node is drained for preemption with a
deadline away, 3.5 s in exercise.toml's tiers, and the cloud takes it at the deadline), tried at every moment
the job runs on a node; `crash` and `node_loss` are preemptions without notice, as in fault04.

The classes the statement names, and where each is drawn: a notice while the job is in a step,
in a checkpoint, right before its last step, and right after a periodic checkpoint (the search
over every moment); a notice of the other node while another tenant's task runs there (the
"neighbour" scenario: the job must not stop for it); a crash or node loss with no notice between
any two steps or checkpoints; and, in the random tier, a notice and crashes in one run.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from faultlines.reading import DIED, FINISHED
from miniray import sim

checks = Checks()
STEPS = 12
INTERVAL = 4  # given to train: periodic checkpoints after steps 3 and 7 (done = 4, 8)
STEP_S = 1.0
CHECKPOINT_S = 1.0
START = 1
MAX_LAUNCHES = 8  # the launcher gives up past this many submissions (a job that never finishes)
CKPT = "ckpt"


def next_weights(step: int, weights: int) -> int:
    """One training step (a stand-in that remembers every step's order)."""
    return (weights * 37 + step + 11) % 1_000_033


def expected_weights() -> int:
    w = START
    for step in range(STEPS):
        w = next_weights(step, w)
    return w


def _who() -> tuple[str, str, float]:
    """The attempt making a call, its node ("driver" outside any task) and the time. Read in the
    body, not in a service call's effect: a body run again from the start replays its reads, not
    the effects its calls already made."""
    attempt = sim.current_attempt()
    if attempt is None:
        return "driver", "", sim.now()
    return attempt.key, ray.get_runtime_context().get_node_id(), sim.now()


class Store(Service):
    """Durable checkpoint storage (a service outside the cluster: it outlives the spot nodes).

    ckpt.save(done, weights)   takes CHECKPOINT_S; keeps (done, weights): `done` steps are in weights
    ckpt.load()                the last (done, weights) saved, or None
    """

    def __init__(self, services: Any, job: Job) -> None:
        self._svc = services
        self._job = job
        self.latest: tuple[int, Any] | None = None

    def save(self, done: int, weights: Any) -> None:
        time.sleep(CHECKPOINT_S)  # a checkpoint costs the job time: that is why it is not every step
        kept = (int(done), copy.deepcopy(weights))
        who = _who()

        def run() -> None:
            self.latest = kept
            self._job.note(who, "save", kept[0], held=self._job.chain(kept[1]))

        self._svc.call(CKPT, "save", f"done-{kept[0]}", run)

    def load(self) -> tuple[int, Any] | None:
        return self._svc.call(CKPT, "load", "latest", lambda: copy.deepcopy(self.latest), record=False)


class Job:
    """What the job did, in order: each step and each save, by which attempt, on which node and
    when; and, for each weights value, the steps that made it (to tell a save's `done` is right)."""

    def __init__(self, services: Any) -> None:
        self._svc = services
        self.history: list[dict] = []
        self._chains: dict[Any, tuple[int, ...]] = {START: ()}

    def note(
        self, who: tuple[str, str, float], what: str, n: int, held: tuple[int, ...] | None = None
    ) -> None:
        attempt, node, t = who
        entry = {"attempt": attempt, "node": node, "what": what, "n": n, "t": t}
        if held is not None:
            entry["held"] = list(held)
        self.history.append(entry)

    def chain(self, weights: Any) -> tuple[int, ...] | None:
        return self._chains.get(weights) if isinstance(weights, int) else None

    def do_step(self, step: int, weights: int) -> int:
        time.sleep(STEP_S)
        who = _who()

        def run() -> int:
            new = next_weights(step, weights)
            before = self.chain(weights)
            self._chains.setdefault(new, (*before, step) if before is not None else (step,))
            self.note(who, "step", step)
            return new

        return self._svc.call("trainer", "do_step", f"step-{step}", run)


def _affinity(node_id: str) -> Any:
    from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return NodeAffinitySchedulingStrategy(node_id=node_id, soft=True)


def _launch(sub: Any, ctx: Any, neighbour: bool) -> dict:
    cluster = ctx.cluster(workers=2)
    nodes = cluster.worker_nodes
    record = Job(ctx.services)
    store = Store(ctx.services, record)

    @ray.remote(max_retries=3)  # Ray retries a crashed or lost job; the launcher, one that stopped
    def job() -> Any:
        return sub.train(store, STEPS, INTERVAL, record.do_step)

    if neighbour:  # another tenant's long task on the other node, the one the notice is for

        @ray.remote(max_retries=0)
        def tenant() -> None:
            time.sleep(30.0)

        tenant.options(scheduling_strategy=_affinity(nodes[1].node_id)).remote()

    launches, result, failed = 0, None, ""
    ref = job.options(scheduling_strategy=_affinity(nodes[0].node_id)).remote()
    while True:
        launches += 1
        try:
            result = ray.get(ref)
        except ray.exceptions.RayError as e:
            # A task's error ends with what the task raised; its first line is only "ray::job()".
            lines = [line for line in str(e).strip().splitlines() if line.strip()]
            failed = f"{type(e).__name__}: {lines[-1].strip() if lines else ''}"
            break
        if result is not None or launches >= MAX_LAUNCHES:
            break
        ref = job.remote()  # stopped on notice: again, wherever Ray places it (not a draining node)
    return {
        "weights": result,
        "failed": failed,
        "launches": launches,
        "history": list(record.history),
        "node_ids": {n.node_id: n.name for n in nodes},
    }


@checks.scenario("train")
def train(sub: Any, ctx: Any) -> dict:
    return _launch(sub, ctx, neighbour=False)


@checks.scenario("neighbour")
def neighbour(sub: Any, ctx: Any) -> dict:
    """The job on node:1, another tenant's task on node:2: a notice for node:2 is not the job's."""
    return _launch(sub, ctx, neighbour=True)


# -- what the run shows ---------------------------------------------------------------------------
def _steps(outcome: dict) -> list[dict]:
    return [h for h in outcome.get("history", []) if h["what"] == "step"]


def _name(outcome: dict, node_id: str) -> str:
    return outcome.get("node_ids", {}).get(node_id, node_id[:8])


def _notices(ctx: Any) -> list[Any]:
    """Each preemption notice: the node drained, when, and its deadline."""
    return ctx.reading.of(sim.Kind.NODE_DRAINING)


def _crashed(ctx: Any) -> set[str]:
    """Attempts the schedule's crash or node loss (not a notice's deadline) killed."""
    struck = {f.target for f in ctx.faults if f.kind == "crash"}
    lost = {f.target for f in ctx.faults if f.kind == "kill_node"}
    return {
        a.key for a in ctx.reading.attempts("job") if a.key in struck or (a.node in lost and a.how == DIED)
    }


def _noticed(outcome: dict, ctx: Any) -> list[tuple[Any, Any]]:
    """(notice, attempt) for each notice of the node a job attempt was running on at the time."""
    pairs = []
    for notice in _notices(ctx):
        for a in ctx.reading.attempts("job"):
            began = a.started if a.started is not None else float("inf")
            ended = a.ended if a.ended is not None else float("inf")
            if a.node == notice["node"] and began <= notice.time < ended:
                pairs.append((notice, a))
    return pairs


def _lost_to(notice: Any, attempt: Any, outcome: dict) -> list[int]:
    """Steps `attempt` did on the noticed node that a later attempt did again."""
    steps = _steps(outcome)
    mine = [h for h in steps if h["attempt"] == attempt.key]
    later = {h["n"] for h in steps if h["attempt"] != attempt.key and h["t"] > notice.time}
    return sorted({h["n"] for h in mine if h["n"] in later})


@checks.invariant("finishes-with-the-right-weights")
def right_weights(outcome: dict, ctx: Any) -> str | None:
    """The launcher gets back the weights of steps 0 to 11, each applied once, in order."""
    if outcome.get("failed"):
        return f"the job failed and the launcher got {outcome['failed']}"
    if outcome["weights"] == expected_weights():
        return None
    if outcome["weights"] is None:
        return f"train returned None {outcome['launches']} times in a row: the job never finished"
    ran = [h["n"] for h in _steps(outcome)]
    return (
        f"train returned weights {outcome['weights']!r}, expected {expected_weights()}: the steps run were "
        f"{ran}, so a step was skipped or applied twice"
    )


@checks.invariant("loses-nothing-to-a-notice")
def loses_nothing(outcome: dict, ctx: Any) -> list[str | Broken]:
    """After a preemption notice for its node, the job finishes the step it is in, saves, and returns before the deadline: no step it did there is run again, and the cloud takes an idle node."""
    problems: list[str | Broken] = []
    crashed = _crashed(ctx)
    for notice, attempt in _noticed(outcome, ctx):
        if attempt.key in crashed:
            continue  # a crash came first: that loss is the crash's (resumes-from-the-last-checkpoint)
        lost = _lost_to(notice, attempt, outcome)
        deadline = notice.get("deadline")
        taken = attempt.how == DIED and deadline is not None and (attempt.ended or 0) >= deadline
        if not lost and not taken:
            continue
        what = (
            f"steps {', '.join(map(str, lost))} were done again after it"
            if lost
            else "Ray had to run it again elsewhere (it kept the node instead of giving it back)"
        )
        took = (
            f"; the cloud took {notice['node']} at {deadline:g} s with {attempt.key} still there"
            if taken
            else ""
        )
        problems.append(
            Broken(
                f"{notice['node']} got its preemption notice at {notice.time:g} s while {attempt.key} ran there"
                f"{took}: {what}",
                attempts=[attempt.key],
                at=notice.index,
            )
        )
    return problems


@checks.invariant("resumes-from-the-last-checkpoint")
def resumes(outcome: dict, ctx: Any) -> str | None:
    """After a crash or a lost node (no notice), at most the steps since the last checkpoint are run again."""
    if outcome.get("failed") or outcome["weights"] is None:
        return None
    crashes = len(_crashed(ctx))
    redone = len(_steps(outcome)) - STEPS
    allowed = crashes * INTERVAL
    if not crashes or redone <= allowed:
        return None
    return (
        f"{redone} steps were run again after {crashes} crash(es) with no notice; with a checkpoint every "
        f"{INTERVAL} steps, at most {allowed} should be (the steps run: {[h['n'] for h in _steps(outcome)]})"
    )


def _draining_at(outcome: dict, ctx: Any, node_id: str, t: float) -> bool:
    """Whether the node (by id) had had its notice by time t."""
    name = _name(outcome, node_id)
    return any(n["node"] == name and n.time <= t for n in _notices(ctx))


@checks.invariant("checkpoint-overhead")
def checkpoint_overhead(outcome: dict, ctx: Any) -> str | None:
    """A checkpoint is saved every `interval` steps (right after the step that reaches it, never after the last) and once on a notice for the job's own node: none more."""
    history = outcome.get("history", [])
    on_notice: set[str] = set()
    for i, h in enumerate(history):
        if h["what"] != "save":
            continue
        before = [e for e in history[:i] if e["attempt"] == h["attempt"]]
        after_step = bool(before) and before[-1]["what"] == "step" and before[-1]["n"] == h["n"] - 1
        periodic = h["n"] % INTERVAL == 0 and 0 < h["n"] < STEPS and after_step
        if periodic:
            continue
        noticed = _draining_at(outcome, ctx, h["node"], h["t"] - CHECKPOINT_S)
        if noticed and h["attempt"] not in on_notice:
            on_notice.add(h["attempt"])
            continue
        where = _name(outcome, h["node"])
        why = (
            f"a second time on one notice for {where}"
            if noticed
            else f"with no notice for {where}, the node {h['attempt']} ran on"
            + (" (another node had one)" if _notices(ctx) else "")
        )
        return (
            f"{h['attempt']} saved a checkpoint of {h['n']} steps at {h['t'] - CHECKPOINT_S:g} s {why}; the job saves "
            f"after steps {', '.join(str(m - 1) for m in range(INTERVAL, STEPS, INTERVAL))} and once on its own node's "
            f"notice (each save costs {CHECKPOINT_S:g} s)"
        )
    return None


# -- evidence for the hints -----------------------------------------------------------------------
# What a noticed attempt did after its notice, as the run shows it: its steps and saves (with the
# time each ended) and, from its journal, each read of the draining table between them.
Act = tuple[str, float, int]  # ("step" | "save" | "look", when it happened, the step or count)


def _acts(outcome: Any, ctx: Any, attempt: str) -> list[Act]:
    done = [h for h in (outcome or {}).get("history", []) if h["attempt"] == attempt]
    acts: list[Act] = []
    t, i = -1.0, 0
    for op, _site in ctx.journals.get(attempt, []):
        if op == "get_draining_nodes":
            acts.append(("look", t, -1))  # a read takes no time: it happened as the last act ended
        elif op in ("trainer.do_step", "ckpt.save") and i < len(done):
            t = done[i]["t"]
            acts.append((done[i]["what"], t, done[i]["n"]))
            i += 1
    return acts


def _since_notice(outcome: Any, ctx: Any, how: str = DIED) -> list[list[Act]]:
    """For each attempt noticed on its node that ended `how` (DIED: the cloud took it at the
    deadline) with no crash first, its acts since the notice."""
    out = []
    for n, a in _noticed(outcome or {}, ctx):
        if a.how == how and a.key not in _crashed(ctx):
            acts = _acts(outcome, ctx, a.key)
            out.append([x for x in acts if x[1] > n.time or (x[0] == "look" and x[1] >= n.time)])
    return out


def _notice_save(acts: list[Act]) -> int | None:
    """The index of the first save since the notice that is not a periodic one."""
    for i, (what, _t, n) in enumerate(acts):
        periodic = n % INTERVAL == 0 and i > 0 and acts[i - 1][0] == "step" and acts[i - 1][2] == n - 1
        if what == "save" and not periodic:
            return i
    return None


@checks.evidence_for("ignored-the-notice")
def ignored(outcome: Any, ctx: Any) -> bool:
    """An attempt the cloud took after its notice never read the draining table at all."""
    return any(
        not any(op == "get_draining_nodes" for op, _ in ctx.journals.get(a.key, []))
        for _n, a in _noticed(outcome or {}, ctx)
        if a.how == DIED and a.key not in _crashed(ctx)
    )


@checks.evidence_for("saved-and-stayed")
def saved_and_stayed(outcome: Any, ctx: Any) -> bool:
    """An attempt saved on its notice and then ran more steps there, until the cloud took the node."""
    for acts in _since_notice(outcome, ctx):
        i = _notice_save(acts)
        if i is not None and any(w == "step" for w, _t, _n in acts[i + 1 :]):
            return True
    return False


@checks.evidence_for("stayed-until-taken")
def stayed_until_taken(outcome: Any, ctx: Any) -> bool:
    """An attempt saved on its notice, ran no step after it, and was still there at the deadline."""
    for acts in _since_notice(outcome, ctx):
        i = _notice_save(acts)
        if i is not None and not any(w == "step" for w, _t, _n in acts[i + 1 :]):
            return True
    return False


@checks.evidence_for("went-on-after-seeing")
def went_on_after_seeing(outcome: Any, ctx: Any) -> bool:
    """An attempt read the draining table after its notice (so saw it) and then ran another step."""
    for acts in _since_notice(outcome, ctx):
        looks = [i for i, a in enumerate(acts) if a[0] == "look"]
        if looks and _notice_save(acts) is None and any(a[0] == "step" for a in acts[looks[0] + 1 :]):
            return True
    return False


@checks.evidence_for("checked-too-rarely")
def checked_too_rarely(outcome: Any, ctx: Any) -> bool:
    """After its notice an attempt ran two or more steps or saves before it next read the draining table."""
    for acts in _since_notice(outcome, ctx):
        first_look = next((i for i, a in enumerate(acts) if a[0] == "look"), len(acts))
        if first_look >= 2 and _notice_save(acts[:first_look]) is None:
            return True
    return False


@checks.evidence_for("stopped-without-saving")
def stopped_without_saving(outcome: Any, ctx: Any) -> bool:
    """An attempt returned after its node's notice without saving what it had done since its last checkpoint."""
    for acts in _since_notice(outcome, ctx, how=FINISHED):
        if not any(w == "save" for w, _t, _n in acts):
            return True
    return False


@checks.evidence_for("another-nodes-notice")
def another_nodes_notice(outcome: Any, ctx: Any) -> bool:
    """The job saved (or stopped) on a notice that was for another node."""
    history = (outcome or {}).get("history", [])
    for h in history:
        start = h["t"] - CHECKPOINT_S
        if h["what"] == "save" and h["n"] % INTERVAL and not _draining_at(outcome, ctx, h["node"], start):
            return bool(_notices(ctx))
    return False


@checks.evidence_for("saved-the-wrong-count")
def saved_the_wrong_count(outcome: Any, ctx: Any) -> bool:
    """A save's `done` is not the number of steps its weights hold."""
    return any(
        h["what"] == "save" and "held" in h and h["held"] is not None and len(h["held"]) != h["n"]
        for h in (outcome or {}).get("history", [])
    )


@checks.evidence_for("raised-on-notice")
def raised_on_notice(outcome: Any, ctx: Any) -> bool:
    """The job raised an exception (Ray does not retry an application error unless told to)."""
    return bool(outcome) and bool(outcome.get("failed")) and "RayTaskError" in outcome["failed"]


@checks.evidence_for("no-periodic-checkpoints")
def no_periodic_checkpoints(outcome: Any, ctx: Any) -> bool:
    """No checkpoint was saved at a multiple of the interval before a crash with no notice."""
    saves = [h for h in (outcome or {}).get("history", []) if h["what"] == "save"]
    return bool(_crashed(ctx)) and not any(h["n"] % INTERVAL == 0 for h in saves)
