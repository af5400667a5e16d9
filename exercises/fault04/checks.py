"""fault04 checks: a training job on spot nodes resumes from its checkpoints, at a good interval.

Two scenarios. "interval" asks choose_interval for the checkpoint interval of a few clusters
(mean time between preemptions, checkpoint cost, step time) and compares the expected overhead
of each answer with the best whole number of steps. "train" runs the learner's loop as a Ray
task (the harness retries it, as a spot job's launcher would) under preemptions: the node under
it is lost, or its worker killed, between any two of its steps or checkpoints.

The classes the statement names, and where each is drawn: clusters whose best interval is many
steps, a few steps, and less than one step (so `max(1, ...)` matters), with step times of 1 s and
not 1 s (steps, not seconds); a preemption before or after any step or checkpoint, by a worker
kill or a node loss, one (the search) to three (the random tier) in a run. The checkpoints are
judged over the whole run: a save must follow the step that reached it, resumes included.
"""

from __future__ import annotations

import copy
import math
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks, Service
from miniray import sim

checks = Checks()
STEPS = 9  # a multiple of the interval: a needless checkpoint after the last step shows
STEP_S = 1.0
CHECKPOINT_S = 1.0
MTBF_S = 4.5  # sqrt(2 * 1.0 * 4.5) = 3 s between checkpoints: every 3 steps
START = 1
OVERHEAD_SLACK = 1.02  # an interval's expected overhead may be 2% above the best one's
# (mean time between preemptions, checkpoint cost, step time), in seconds
CLUSTERS = [
    (4.5, 1.0, 1.0),
    (3600.0, 20.0, 2.0),
    (600.0, 3.0, 0.5),
    (7200.0, 60.0, 30.0),
    (200.0, 25.0, 4.0),
    (20.0, 0.5, 10.0),
]


def next_weights(step: int, weights: int, data: int = 0) -> int:
    """What one training step does to the weights (a stand-in that remembers every step's order);
    `data`: which job's data it trains on (two jobs reach different weights)."""
    return (weights * 31 + step + 7 + 1009 * data) % 1_000_003


def expected_weights(data: int = 0) -> int:
    w = START
    for step in range(STEPS):
        w = next_weights(step, w, data)
    return w


def overhead(steps: int, mtbf_s: float, checkpoint_s: float, step_s: float) -> float:
    """Expected fraction of time lost to checkpoints and to redone work, first order (Young):
    a checkpoint costs C every tau seconds, and a preemption loses tau / 2 on average."""
    tau = steps * step_s
    return checkpoint_s / tau + tau / (2 * mtbf_s)


def best_steps(mtbf_s: float, checkpoint_s: float, step_s: float) -> int:
    guess = max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))
    return min(range(max(1, guess - 3), guess + 4), key=lambda k: overhead(k, mtbf_s, checkpoint_s, step_s))


# The names the calls go by in the log and the debugger: the learner's `ckpt.save`, `ckpt.load`,
# and `do_step`, which is the trainer's (`trainer.do_step`, as the statement says).
CKPT = "ckpt"


class Checkpoints(Service):
    """Durable checkpoint storage for the job (a simulated service; it outlives the spot nodes).

    ckpt.save(step, weights)   takes CHECKPOINT_S of the job's time; keeps (step, weights)
    ckpt.load()                the last saved (step, weights), or None
    """

    def __init__(self, services: Any, history: list[tuple[str, str, int]]) -> None:
        self._svc = services
        self.latest: tuple[int, Any] | None = None
        self.saved_steps: list[int] = []
        self.history = history  # (attempt, "step", n) and (attempt, "save", n), in order

    def save(self, step: int, weights: Any) -> None:
        time.sleep(CHECKPOINT_S)  # writing the checkpoint is not free: that is the trade-off
        kept = (int(step), copy.deepcopy(weights))

        def run() -> None:
            self.latest = kept
            self.saved_steps.append(kept[0])
            self.history.append((_attempt(), "save", kept[0]))

        self._svc.call(CKPT, "save", f"step-{kept[0]}", run)

    def load(self) -> tuple[int, Any] | None:
        return self._svc.call(CKPT, "load", "latest", lambda: copy.deepcopy(self.latest), record=False)


class Trainer(Service):
    """do_step(step, weights): one training step (STEP_S of the job's time); returns new weights."""

    def __init__(self, services: Any, history: list[tuple[str, str, int]], data: int = 0) -> None:
        self._svc = services
        self.runs: list[int] = []  # the steps run, in order, repeats included
        self.history = history
        self.data = data

    def do_step(self, step: int, weights: int) -> int:
        time.sleep(STEP_S)

        def run() -> int:
            self.runs.append(step)
            self.history.append((_attempt(), "step", step))
            return next_weights(step, weights, self.data)

        return self._svc.call("trainer", "do_step", f"step-{step}", run)


def _attempt() -> str:
    attempt = sim.current_attempt()
    return attempt.key if attempt is not None else "driver"


def _before(history: list[tuple[str, str, int]], i: int) -> tuple[str, int] | None:
    """What the same attempt did just before history[i], or None if it was its first act."""
    attempt = history[i][0]
    earlier = [(what, n) for a, what, n in history[:i] if a == attempt]
    return earlier[-1] if earlier else None


def _interval(sub: Any, mtbf_s: float, checkpoint_s: float, step_s: float) -> tuple[int | None, str]:
    try:
        k = sub.choose_interval(mtbf_s, checkpoint_s, step_s)
    except Exception as e:
        return None, f"choose_interval({mtbf_s}, {checkpoint_s}, {step_s}) raised {type(e).__name__}: {e}"
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        return (
            None,
            f"choose_interval({mtbf_s}, {checkpoint_s}, {step_s}) returned {k!r}, not a whole number of steps >= 1",
        )
    return k, ""


@checks.scenario("interval")
def interval(sub: Any, ctx: Any) -> dict:
    return {"intervals": [(cluster, *_interval(sub, *cluster)) for cluster in CLUSTERS]}


def _jobs(sub: Any, ctx: Any, workers: int, jobs: int) -> dict:
    """`jobs` training jobs one after the other, each with a store of its own, each a task the
    launcher retries; the outcome judged is the last job's. One remote function runs them all,
    as one launcher would: a worker process that ran an earlier job runs the next one with the
    module state that job left (Ray reuses the process)."""
    ctx.cluster(workers=workers)
    k, problem = _interval(sub, MTBF_S, CHECKPOINT_S, STEP_S)
    if k is None:
        return {"intervals": [((MTBF_S, CHECKPOINT_S, STEP_S), None, problem)]}
    histories: list[list[tuple[str, str, int]]] = [[] for _ in range(jobs)]
    stores = [(Checkpoints(ctx.services, h), Trainer(ctx.services, h, n)) for n, h in enumerate(histories)]

    @ray.remote(max_retries=-1)  # the launcher starts the job again after every preemption
    def job(n: int) -> Any:
        ckpt, trainer = stores[n]
        return sub.train(ckpt, STEPS, k, trainer.do_step)

    for n in range(jobs - 1):
        ray.get(job.remote(n))
    begin = sim.now()
    weights = ray.get(job.remote(jobs - 1))
    ckpt, trainer = stores[-1]
    return {
        "interval": k,
        "weights": weights,
        "runs": list(trainer.runs),
        "saved": list(ckpt.saved_steps),
        "history": list(histories[-1]),
        "elapsed": sim.now() - begin,
        "preemptions": len(ctx.faults),
        "earlier_jobs": jobs - 1,
        "data": jobs - 1,
    }


@checks.scenario("train")
def train(sub: Any, ctx: Any) -> dict:
    return _jobs(sub, ctx, workers=2, jobs=1)


@checks.scenario("two-jobs")
def two_jobs(sub: Any, ctx: Any) -> dict:
    """Two jobs one after the other, each with a store of its own, on one worker node: the second
    runs in the worker process the first ran in (Ray reuses it), so whatever the code keeps in a
    module global from the first job is still there. Judged: the second job."""
    return _jobs(sub, ctx, workers=1, jobs=2)


@checks.invariant("interval-near-optimal")
def near_optimal(outcome: dict, ctx: Any) -> list[str]:
    """For each cluster, the interval's expected overhead C/tau + tau/(2M) is within 2% of the best whole number of steps."""
    problems = []
    for (mtbf_s, checkpoint_s, step_s), k, problem in outcome.get("intervals", []):
        if k is None:
            problems.append(problem)
            continue
        best = best_steps(mtbf_s, checkpoint_s, step_s)
        got, low = overhead(k, mtbf_s, checkpoint_s, step_s), overhead(best, mtbf_s, checkpoint_s, step_s)
        if got > OVERHEAD_SLACK * low:
            problems.append(
                f"for preemptions every {mtbf_s:g} s on average, checkpoints costing {checkpoint_s:g} s and "
                f"steps of {step_s:g} s, an interval of {k} steps loses {100 * got:.1f}% of the time; "
                f"the best interval loses {100 * low:.1f}%"
            )
    return problems


@checks.invariant("finishes-with-the-right-weights")
def right_weights(outcome: dict, ctx: Any) -> str | None:
    """train returns the weights of steps 0 to 8, each applied once, in order, whatever preemptions happen."""
    if "weights" not in outcome:
        return None
    want = expected_weights(outcome.get("data", 0))
    if outcome["weights"] == want:
        return None
    runs = outcome["runs"]
    return (
        f"train returned weights {outcome['weights']!r}, expected {want}: the steps run were {runs}, "
        f"so a step was skipped or applied on top of the wrong weights"
    )


@checks.invariant("resumes-from-the-last-checkpoint")
def resumes(outcome: dict, ctx: Any) -> str | None:
    """After a preemption, at most the steps since the last checkpoint are run again."""
    if "weights" not in outcome:
        return None
    k, runs = outcome["interval"], outcome["runs"]
    redone = len(runs) - STEPS
    allowed = outcome["preemptions"] * k
    if redone > allowed:
        return (
            f"{redone} steps were run again after {outcome['preemptions']} preemption(s); with a checkpoint "
            f"every {k} steps, at most {allowed} should be (the steps run: {runs})"
        )
    return None


@checks.invariant("checkpoint-overhead")
def checkpoint_overhead(outcome: dict, ctx: Any) -> str | None:
    """A checkpoint is saved only every `interval` steps, right after the step that reaches it, and never after the last step: none more, resumes included."""
    if "weights" not in outcome:
        return None
    k, history = outcome["interval"], outcome["history"]
    for i, (_, what, n) in enumerate(history):
        if what != "save":
            continue
        before = _before(history, i)
        if n % k or n >= STEPS or before != ("step", n - 1):
            after = (
                f"right after step {before[1]}"
                if before and before[0] == "step"
                else "before any step of its attempt"
            )
            return (
                f"a checkpoint of step {n} was saved {after}; every {k} steps means right after steps "
                f"{', '.join(str(m - 1) for m in range(k, STEPS, k))} only (each one costs {CHECKPOINT_S:g} s; "
                f"saves in this run: {outcome['saved']})"
            )
    return None


@checks.evidence_for("same-interval-everywhere")
def same_interval(outcome: Any, ctx: Any) -> bool:
    answers = {k for _, k, _ in (outcome or {}).get("intervals", []) if k is not None}
    return len(answers) == 1 and len((outcome or {}).get("intervals", [])) > 1


@checks.evidence_for("resumed-from-another-job")
def resumed_from_another_job(outcome: Any, ctx: Any) -> bool:
    """A job run after another in the same worker process began at a step past 0, though its own
    store held no checkpoint yet: it resumed from state the earlier job left in the process."""
    runs = (outcome or {}).get("runs") or []
    return bool((outcome or {}).get("earlier_jobs")) and bool(runs) and runs[0] > 0


@checks.evidence_for("started-over")
def started_over(outcome: Any, ctx: Any) -> bool:
    """Step 0 ran again after a checkpoint had been saved: the job did not resume."""
    return bool(outcome) and outcome.get("runs", []).count(0) > 1 and bool(outcome.get("saved"))


def _intervals(outcome: Any) -> list[tuple[tuple[float, float, float], int]]:
    return [(cluster, k) for cluster, k, _ in (outcome or {}).get("intervals", []) if k is not None]


def _fits(outcome: Any, rule: Any) -> bool:
    """Every interval answered is what `rule` (a mistaken formula) gives, and at least one is off."""
    answers = _intervals(outcome)
    return (
        len(answers) > 1
        and all(k == rule(*cluster) for cluster, k in answers)
        and any(k != best_steps(*cluster) for cluster, k in answers)
    )


@checks.evidence_for("interval-in-seconds")
def interval_in_seconds(outcome: Any, ctx: Any) -> bool:
    return _fits(outcome, lambda m, c, s: max(1, round(math.sqrt(2 * c * m))))


@checks.evidence_for("no-factor-two")
def no_factor_two(outcome: Any, ctx: Any) -> bool:
    return _fits(outcome, lambda m, c, s: max(1, round(math.sqrt(c * m) / s)))


@checks.evidence_for("saved-on-resume")
def saved_on_resume(outcome: Any, ctx: Any) -> bool:
    """An attempt saved a checkpoint before it ran a single step (what it had just loaded)."""
    history = (outcome or {}).get("history", [])
    return any(what == "save" and _before(history, i) is None for i, (_, what, _n) in enumerate(history))


@checks.evidence_for("saved-every-step")
def saved_every_step(outcome: Any, ctx: Any) -> bool:
    saved = (outcome or {}).get("saved", [])
    return outcome is not None and outcome.get("interval", 0) > 1 and len(set(saved)) >= STEPS - 1


@checks.evidence_for("saved-after-the-last-step")
def saved_after_the_last_step(outcome: Any, ctx: Any) -> bool:
    """The checkpoints are the interval's, plus one of the last step, saved right after it."""
    outcome = outcome or {}
    history, k = outcome.get("history", []), outcome.get("interval", 0)
    if not k:
        return False
    last = [i for i, (_, what, n) in enumerate(history) if what == "save" and n == STEPS]
    others = {n for _, what, n in history if what == "save" and n != STEPS}
    return (
        bool(last) and _before(history, last[0]) == ("step", STEPS - 1) and others <= set(range(k, STEPS, k))
    )


@checks.evidence_for("saved-the-step-index")
def saved_the_step_index(outcome: Any, ctx: Any) -> bool:
    """Each checkpoint names the step just run (its index), not the number of steps done."""
    history = (outcome or {}).get("history", [])
    saves = [(_before(history, i), n) for i, (_, what, n) in enumerate(history) if what == "save"]
    return bool(saves) and all(before == ("step", n) for before, n in saves)
