"""fault01 checks: retry transient failures, boundedly, with backoff; never retry a bug.

The harness owns the remote function and submits it with max_retries=0: Ray's own retries
(and its retry_exceptions option) are out of the learner's reach, so the retry policy tested
is the learner's. Each call of `submit()` is one attempt, counted and timed on the driver.
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks
from miniray import sim

checks = Checks()
MAX_ATTEMPTS = 4
BASE_DELAY_S = 1.0
RESULT = "report.csv"


def _run(sub: Any, ctx: Any, scenario: str, fail_first: int, error: type[Exception]) -> dict:
    ctx.cluster(workers=2)
    attempts: list[float] = []
    ctx.extra["attempts"] = attempts  # read by the evidence when a run ends without an outcome

    @ray.remote(max_retries=0)
    def fetch(attempt: int) -> str:
        if attempt <= fail_first:  # fails at once, so the gap to the next attempt is the wait
            raise error(f"attempt {attempt} failed")
        time.sleep(2.0)  # a slow download: a window for a crash or a node loss
        return RESULT

    def submit() -> Any:
        attempts.append(sim.now())
        return fetch.remote(len(attempts))

    outcome: dict = {"scenario": scenario, "attempts": attempts, "fail_first": fail_first}
    try:
        outcome["value"] = sub.call_with_retries(submit, max_attempts=MAX_ATTEMPTS, base_delay_s=BASE_DELAY_S)
    except sim.SimulationError:
        raise  # a spent budget or a stall: the grader reports it as a progress failure
    except Exception as e:  # the learner's own exception: still an outcome to judge
        outcome["error"] = e
    return outcome


@checks.scenario("clean")
def clean(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, "clean", 0, ConnectionError)


@checks.scenario("transient-twice")
def transient_twice(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, "transient-twice", 2, ConnectionError)


@checks.scenario("timeout-once")
def timeout_once(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, "timeout-once", 1, TimeoutError)


@checks.scenario("always-transient")
def always_transient(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, "always-transient", 10**6, ConnectionError)


@checks.scenario("bug")
def bug(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, "bug", 10**6, ValueError)


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[-1] if text else ''}"


def _cause(error: BaseException) -> BaseException:
    return getattr(error, "cause", None) or error


@checks.invariant("bounded")
def bounded(outcome: dict, ctx: Any) -> str | None:
    """call_with_retries makes at most max_attempts attempts in all, the first one included."""
    n = len(outcome["attempts"])
    if n > MAX_ATTEMPTS:
        return f"{n} attempts were made; at most max_attempts={MAX_ATTEMPTS} may be"
    return None


@checks.invariant("bug-not-retried")
def bug_not_retried(outcome: dict, ctx: Any) -> str | None:
    """An error that is not transient (a ValueError: a bug) is attempted once and reaches the caller."""
    if outcome["scenario"] != "bug":
        return None
    n = len(outcome["attempts"])
    if n != 1:
        return f"a ValueError (a bug: it fails the same way every time) was attempted {n} times, not once"
    error = outcome.get("error")
    if error is None or not isinstance(_cause(error), ValueError):
        got = _describe(error) if error is not None else f"returned {outcome.get('value')!r}"
        return f"the caller must see the ValueError; instead call_with_retries {got}"
    return None


@checks.invariant("gives-up-with-the-error")
def gives_up(outcome: dict, ctx: Any) -> str | None:
    """When every attempt fails with a transient error, all max_attempts are made and the last error reaches the caller."""
    if outcome["scenario"] != "always-transient":
        return None
    error = outcome.get("error")
    if error is None:
        return f"every attempt failed, yet call_with_retries returned {outcome.get('value')!r} instead of raising"
    if not isinstance(_cause(error), ConnectionError):
        return f"after the last attempt the caller must see its ConnectionError, not {_describe(error)}"
    if len(outcome["attempts"]) < MAX_ATTEMPTS:
        return f"gave up after {len(outcome['attempts'])} attempts; a transient error deserves {MAX_ATTEMPTS}"
    return None


@checks.invariant("returns-the-result")
def returns_result(outcome: dict, ctx: Any) -> str | None:
    """When an attempt can still succeed, call_with_retries returns the task's result."""
    if outcome["scenario"] in ("bug", "always-transient"):
        return None
    if outcome.get("value") == RESULT:
        return None
    error = outcome.get("error")
    if error is not None:
        return (
            f"an attempt could still succeed (after {len(outcome['attempts'])} attempts), "
            f"but call_with_retries raised {_describe(error)}"
        )
    return f"returned {outcome.get('value')!r}, not the task's result {RESULT!r}"


@checks.invariant("backs-off")
def backs_off(outcome: dict, ctx: Any) -> str | None:
    """Before attempt n+1 it waits base_delay_s * 2**(n-1) seconds: 1 s, then 2 s, then 4 s."""
    times = outcome["attempts"]
    for i in range(1, len(times)):
        wanted = BASE_DELAY_S * 2 ** (i - 1)
        # Failing attempts fail at once, so the gap between submissions is the learner's wait.
        gap = times[i] - times[i - 1]
        if gap + 1e-9 < wanted:
            return (
                f"attempt {i + 1} was submitted {gap:g} s after attempt {i}; with base_delay_s={BASE_DELAY_S:g} "
                f"it must wait at least {wanted:g} s (doubling each time)"
            )
        # Where no fault stretched an attempt, the wait is exact: waiting longer only delays the result.
        if not ctx.faults and gap > wanted + 1e-9:
            return (
                f"attempt {i + 1} was submitted {gap:g} s after attempt {i}; the backoff is base_delay_s, "
                f"then twice that, and so on: {wanted:g} s here"
            )
    return None


@checks.evidence_for("kept-retrying")
def kept_retrying(outcome: Any, ctx: Any) -> bool:
    return len(ctx.extra.get("attempts", ())) > MAX_ATTEMPTS
