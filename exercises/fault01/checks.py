"""fault01 checks: retry transient failures, boundedly, with backoff; never retry a bug.

The harness owns the remote function and submits it with max_retries=0: Ray's own retries
(and its retry_exceptions option) are out of the learner's reach, so the retry policy tested
is the learner's. Each call of `submit()` is one attempt; what that attempt does is the
scenario's plan for it.

The classes the statement names, and where each is drawn:
- transient, raised by the task: ConnectionError, one of its subclasses (ConnectionResetError:
  "those classes and their subclasses"), TimeoutError;
- transient, the machine: the worker dies under the attempt (WorkerCrashedError), the node
  dies under it (NodeDiedError): in the plans, and from the grader's own crash and node-loss moves;
- a bug, anything else: ValueError, KeyError, TypeError, a missing file (FileNotFoundError, an
  OSError that is not transient) and an exception class of the program's own;
- how it ends: success after some transient failures, transient failures on every attempt, a
  bug at the first attempt or after transient ones.
The teaching tier shows one of each ending; the "every kind" tier one scenario per class; the
seeded tier draws plans from all of them.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks
from miniray import sim
from miniray.exceptions import NodeDiedError, WorkerCrashedError
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

checks = Checks()
MAX_ATTEMPTS = 4
BASE_DELAY_S = 1.0
RESULT = "report.csv"
WORKERS = 4  # room for two node losses in a plan, and the grader's own one


class ParseError(Exception):
    """The program's own exception: a bug like any other."""


RAISED = {  # an attempt's plan -> what the task raises
    "ConnectionError": ConnectionError,
    "ConnectionResetError": ConnectionResetError,
    "TimeoutError": TimeoutError,
    "ValueError": ValueError,
    "KeyError": KeyError,
    "TypeError": TypeError,
    "FileNotFoundError": FileNotFoundError,
    "ParseError": ParseError,
}
TRANSIENT = ("ConnectionError", "ConnectionResetError", "TimeoutError", "crash", "node")
BUGS = ("ValueError", "KeyError", "TypeError", "FileNotFoundError", "ParseError")
# What the caller must see when a plan's kind ends the call: the error's class.
SEEN = {"crash": WorkerCrashedError, "node": NodeDiedError, **RAISED}


Call = tuple[list[str], bool]  # one call_with_retries: its plan, and whether it fails forever


def _run(
    sub: Any, ctx: Any, scenario: str, plan: list[str], forever: bool, before: tuple[Call, ...] = ()
) -> dict:
    """`plan[i]` is what attempt i+1 does (a kind above); attempts past the plan succeed, or,
    `forever`, do what its last one did. `before`: calls made first, in the same process (state
    the learner's code keeps between calls carries over, as in a real program); the outcome
    judged is the last call's."""
    cluster = ctx.cluster(workers=WORKERS)
    nodes = [n.node_id for n in cluster.worker_nodes]
    # The earlier calls' outcomes stay referenced until the run ends: an error's traceback holds
    # object refs in a cycle, and a cycle freed by the garbage collector would log its object.free
    # at a moment that differs from run to run.
    calls = [_call(sub, ctx, nodes, *call) for call in before]
    made = [len(call["attempts"]) for call in calls]
    earlier = sum(made)  # attempts the calls before this one made: their fetch ordinals come first
    outcome = _call(sub, ctx, nodes, plan, forever)
    outcome.update(scenario=scenario, before=made, earlier_calls=calls)
    outcome["ended"] = {n - earlier: t for n, t in _ended(ctx).items() if n > earlier}
    return outcome


def _call(sub: Any, ctx: Any, nodes: list[Any], plan: list[str], forever: bool) -> dict:
    attempts: list[float] = []
    ctx.extra["attempts"] = attempts  # read by the evidence when a run ends without an outcome

    def kind_of(attempt: int) -> str:
        if attempt <= len(plan):
            return plan[attempt - 1]
        return plan[-1] if forever else "ok"

    @ray.remote(max_retries=0)
    def fetch(attempt: int, kind: str) -> str:
        if kind in RAISED:  # fails at once, so the gap to the next attempt is the wait
            raise RAISED[kind](f"attempt {attempt} failed")
        if kind == "crash":
            os._exit(1)  # the worker dies under the attempt
        time.sleep(2.0)  # a slow download: a window for a crash or a node loss
        return RESULT

    def submit() -> Any:
        attempts.append(sim.now())
        n = len(attempts)
        kind = kind_of(n)
        if kind != "node":
            return fetch.remote(n, kind)
        node = nodes[(n - 1) % len(nodes)]  # the node under this attempt dies 0.5 s into it
        ref = fetch.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=True)).remote(
            n, kind
        )
        sim.kill_node(node, at=sim.now() + 0.5)
        return ref

    outcome: dict = {
        "plan": plan,
        "forever": forever,
        "attempts": attempts,
        "kinds": [],
    }
    try:
        outcome["value"] = sub.call_with_retries(submit, max_attempts=MAX_ATTEMPTS, base_delay_s=BASE_DELAY_S)
    except sim.SimulationError:
        raise  # a spent budget or a stall: the grader reports it as a progress failure
    except Exception as e:  # the learner's own exception: still an outcome to judge
        outcome["error"] = e
    outcome["kinds"] = [kind_of(n) for n in range(1, len(attempts) + 1)]
    return outcome


def _ended(ctx: Any) -> dict[int, float]:
    """When each attempt (fetch#n) failed or finished, from the run's reading."""
    ended: dict[int, float] = {}
    judged = [a for a in ctx.reading.attempts("fetch") if a.ended is not None]
    for a in sorted(judged, key=lambda a: a.end_index):
        ended.setdefault(a.ordinal, a.ended)
    return ended


def _scenario(name: str, plan: list[str], forever: bool = False, before: tuple[Call, ...] = ()) -> None:
    checks.scenario(name)(lambda sub, ctx: _run(sub, ctx, name, plan, forever, before))


# The teaching tier: one of each ending.
_scenario("clean", [])
_scenario("transient-twice", ["ConnectionError", "ConnectionError"])
_scenario("timeout-once", ["TimeoutError"])
_scenario("always-transient", ["ConnectionError"], forever=True)
_scenario("bug", ["ValueError"], forever=True)
# One scenario per class the statement names.
for _kind in BUGS[1:]:
    _scenario(f"bug-{_kind}", [_kind], forever=True)
_scenario("bug-after-a-timeout", ["TimeoutError", "KeyError"], forever=True)
_scenario("transient-ConnectionResetError", ["ConnectionResetError"])
_scenario("worker-dies-twice", ["crash", "crash"])
_scenario("node-dies-once", ["node"])
_scenario("always-timeout", ["TimeoutError"], forever=True)
_scenario("worker-always-dies", ["crash"], forever=True)
# Two calls: the first gives up (every attempt times out), the second needs three retries. State
# kept between calls (an attempt counter in a module global, reset only on success) leaves the
# second call fewer attempts than max_attempts.
_scenario("second-call-after-giving-up", ["ConnectionError"] * 3, before=((["TimeoutError"], True),))

SEEDS = range(1, 11)


def _plan(seed: int) -> tuple[list[str], bool]:
    """A seeded plan: up to three transient failures of any kind, then success, a bug, or one
    transient kind on every attempt left (at most two node losses: four workers, and the
    grader may lose one more)."""
    rng = random.Random(seed)  # a private generator: the same plan on every Python
    plan = [rng.choice(TRANSIENT) for _ in range(rng.randint(0, MAX_ATTEMPTS - 1))]
    end = rng.choice(("ok", "bug", "forever"))
    if end == "bug":
        plan.append(rng.choice(BUGS))
    elif end == "forever":
        plan.append(rng.choice(("ConnectionError", "ConnectionResetError", "TimeoutError", "crash")))
    while plan.count("node") > 2:
        plan[plan.index("node")] = "crash"
    return plan, end != "ok"


for _seed in SEEDS:
    _scenario(f"seeded-plan-{_seed}", *_plan(_seed))


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[-1] if text else ''}"


def _cause(error: BaseException) -> BaseException:
    return getattr(error, "cause", None) or error


def _first_bug(outcome: dict) -> int | None:
    """The attempt at which the plan raises a bug (1-based), if it does."""
    return next((i + 1 for i, k in enumerate(outcome["plan"]) if k in BUGS), None)


def _always_fails(outcome: dict) -> bool:
    return outcome["forever"] and _first_bug(outcome) is None


@checks.invariant("bounded")
def bounded(outcome: dict, ctx: Any) -> str | None:
    """call_with_retries makes at most max_attempts attempts in all, the first one included."""
    n = len(outcome["attempts"])
    if n > MAX_ATTEMPTS:
        return f"{n} attempts were made; at most max_attempts={MAX_ATTEMPTS} may be"
    return None


@checks.invariant("bug-not-retried")
def bug_not_retried(outcome: dict, ctx: Any) -> Broken | None:
    """An error that is not transient (a bug: any other exception) is not retried: it reaches the caller at once."""
    at = _first_bug(outcome)
    if at is None or len(outcome["attempts"]) < at:
        return None
    bug = outcome["plan"][at - 1]
    n = len(outcome["attempts"])
    if n > at:
        return Broken(  # the bug's attempts failed, each given up: it broke at the last
            f"a {bug} (a bug: it fails the same way every time) at attempt {at} was attempted again: "
            f"{n} attempts in all, not {at}",
            final=True,
        )
    error = outcome.get("error")
    if error is None or not isinstance(_cause(error), SEEN[bug]):
        got = _describe(error) if error is not None else f"returned {outcome.get('value')!r}"
        return Broken(f"the caller must see the {bug}; instead call_with_retries {got}", final=True)
    return None


@checks.invariant("gives-up-with-the-error")
def gives_up(outcome: dict, ctx: Any) -> str | Broken | None:
    """When every attempt fails with a transient error, all max_attempts are made and the last attempt's error reaches the caller."""
    if not _always_fails(outcome):
        return None
    kind = outcome["plan"][-1]
    error = outcome.get("error")
    if error is None:
        why = f"every attempt failed, yet call_with_retries returned {outcome.get('value')!r} instead of raising"
        return Broken(why, final=True)
    if len(outcome["attempts"]) < MAX_ATTEMPTS:
        return f"gave up after {len(outcome['attempts'])} attempts; a transient error deserves {MAX_ATTEMPTS}"
    if not isinstance(_cause(error), SEEN[kind]):
        why = f"after the last attempt the caller must see its {SEEN[kind].__name__}, not {_describe(error)}"
        return Broken(why, final=True)
    return None


@checks.invariant("returns-the-result")
def returns_result(outcome: dict, ctx: Any) -> str | Broken | None:
    """When an attempt can still succeed, call_with_retries returns the task's result."""
    if _first_bug(outcome) is not None or _always_fails(outcome):
        return None
    if outcome.get("value") == RESULT:
        return None
    error = outcome.get("error")
    if error is not None:
        return Broken(
            f"an attempt could still succeed (after {len(outcome['attempts'])} attempts), "
            f"but call_with_retries raised {_describe(error)}",
            final=True,
        )
    return f"returned {outcome.get('value')!r}, not the task's result {RESULT!r}"


def _waits(outcome: dict) -> list[tuple[int, float, float]]:
    """(attempt n+1, its wait after attempt n failed, the wait the rule asks), per retry."""
    times, ended = outcome["attempts"], outcome["ended"]
    return [
        (i + 1, times[i] - ended.get(i, times[i - 1]), BASE_DELAY_S * 2 ** (i - 1))
        for i in range(1, len(times))
    ]


@checks.invariant("backs-off")
def backs_off(outcome: dict, ctx: Any) -> str | None:
    """After attempt n fails, it waits base_delay_s * 2**(n-1) seconds before the next one: 1 s, then 2 s, then 4 s."""
    for n, gap, wanted in _waits(outcome):
        if gap + 1e-9 < wanted:
            return (
                f"attempt {n} was submitted {gap:g} s after attempt {n - 1} failed; with base_delay_s="
                f"{BASE_DELAY_S:g} it must wait {wanted:g} s (doubling each time)"
            )
        if gap > wanted + 1e-9:  # waiting longer only delays the result
            return (
                f"attempt {n} was submitted {gap:g} s after attempt {n - 1} failed; the backoff is "
                f"base_delay_s, then twice that, and so on: {wanted:g} s here"
            )
    return None


@checks.evidence_for("kept-retrying")
def kept_retrying(outcome: Any, ctx: Any) -> bool:
    return len(ctx.extra.get("attempts", ())) > MAX_ATTEMPTS


@checks.evidence_for("never-waited")
def never_waited(outcome: Any, ctx: Any) -> bool:
    waits = _waits(outcome) if outcome else []
    return bool(waits) and all(gap < 1e-9 for _, gap, _ in waits)


@checks.evidence_for("waits-do-not-double")
def waits_do_not_double(outcome: Any, ctx: Any) -> bool:
    """It waited between attempts, but each wait was not twice the one before."""
    gaps = [gap for _, gap, _ in (_waits(outcome) if outcome else [])]
    return len(gaps) > 1 and gaps[0] > 0 and any(abs(b - 2 * a) > 1e-9 for a, b in zip(gaps, gaps[1:]))


@checks.evidence_for("retried-a-bug")
def retried_a_bug(outcome: Any, ctx: Any) -> bool:
    at = _first_bug(outcome) if outcome else None
    return at is not None and len(outcome["attempts"]) > at


@checks.evidence_for("missing-file-retried")
def missing_file_retried(outcome: Any, ctx: Any) -> bool:
    return retried_a_bug(outcome, ctx) and outcome["plan"][_first_bug(outcome) - 1] == "FileNotFoundError"


@checks.evidence_for("gave-up-on-a-subclass")
def gave_up_on_a_subclass(outcome: Any, ctx: Any) -> bool:
    """A ConnectionResetError (a ConnectionError) ended the call at once."""
    return bool(outcome) and outcome["kinds"][-1:] == ["ConnectionResetError"] and "error" in outcome


@checks.evidence_for("gave-up-on-a-lost-machine")
def gave_up_on_a_lost_machine(outcome: Any, ctx: Any) -> bool:
    """The call ended with a lost worker or node while attempts were left."""
    error = (outcome or {}).get("error")
    return (
        error is not None
        and isinstance(_cause(error), WorkerCrashedError | NodeDiedError)
        and len(outcome["attempts"]) < MAX_ATTEMPTS
    )


@checks.evidence_for("cut-short-after-an-earlier-call")
def cut_short_after_an_earlier_call(outcome: Any, ctx: Any) -> bool:
    """A call made after an earlier one in the same process gave up on a transient error with
    attempts left: what the code kept from the earlier call (a counter) cut this one short."""
    return (
        bool(outcome)
        and bool(outcome.get("before"))
        and "error" in outcome
        and _first_bug(outcome) is None
        and len(outcome["attempts"]) < MAX_ATTEMPTS
    )


@checks.evidence_for("raised-another-error")
def raised_another_error(outcome: Any, ctx: Any) -> bool:
    """The call gave up with an exception of its own, not the last attempt's."""
    error = (outcome or {}).get("error")
    return (
        error is not None
        and not isinstance(error, ray.exceptions.RayError)
        and type(error) not in RAISED.values()
    )
