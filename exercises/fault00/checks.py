"""fault00 checks: a three-line word-count pipeline finishes, with the right counts, under faults."""

from __future__ import annotations

from typing import Any

from faultlines.grader.checks import Checks
from miniray import sim

checks = Checks()
LINES = ["The quick brown fox", "  jumps over  ", "the lazy dog today"]
EXPECTED = [4, 2, 4]


@checks.scenario("three-lines")
def three_lines(sub: Any, ctx: Any) -> dict:
    ctx.cluster(workers=2)
    stages = sub.make_pipeline()
    try:
        return {"counts": sub.run_pipeline(stages, list(LINES))}
    except sim.SimulationError:
        raise
    except Exception as e:
        text = str(e).strip().splitlines()
        return {"error": f"{type(e).__name__}: {text[-1] if text else ''}"}


@checks.invariant("pipeline-finishes")
def finishes(outcome: dict, ctx: Any) -> str | None:
    """run_pipeline returns: no task failure reaches the caller, whatever the faults."""
    if "error" in outcome:
        return f"run_pipeline raised {outcome['error']}"
    return None


@checks.invariant("counts-correct")
def counts_correct(outcome: dict, ctx: Any) -> list[str]:
    """The list run_pipeline returns holds the right word count for every line, in order."""
    if "error" in outcome:
        return []
    counts = outcome["counts"]
    if not isinstance(counts, list) or len(counts) != len(LINES):
        return [f"run_pipeline returned {counts!r}; expected one count per line, {EXPECTED}"]
    return [
        f"line {i + 1} ({LINES[i]!r}): got {got!r}, expected {want}"
        for i, (got, want) in enumerate(zip(counts, EXPECTED))
        if got != want
    ]


def _given_up(ctx: Any) -> list[str]:
    """The attempts after which Ray gave a task up (its worker died, no retry left)."""
    return [
        r.fields["attempt"] for r in ctx.records if r.kind == "task.fail" and r.fields.get("retry") is False
    ]


@checks.evidence_for("gave-up-at-first-attempt")
def gave_up_first(outcome: Any, ctx: Any) -> bool:
    return any(a.endswith("/1") for a in _given_up(ctx))


@checks.evidence_for("gave-up-at-second-attempt")
def gave_up_second(outcome: Any, ctx: Any) -> bool:
    return any(a.endswith("/2") for a in _given_up(ctx))
