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
    if "error" in outcome:
        return f"run_pipeline raised {outcome['error']}"
    return None


@checks.invariant("counts-correct")
def counts_correct(outcome: dict, ctx: Any) -> list[str]:
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
