"""fault00 checks: a three-line word-count pipeline finishes, with the right counts, under faults.

The classes the statement names, and where each is drawn:
- faults: a worker crash (of either stage, of any line, before it returns) and a node loss
  (at every event where a worker is busy), up to two in a run, at most one node loss: the
  search tries every such schedule, the random tier draws two moves from both kinds;
- text: words separated by one space, by runs of spaces, with spaces around the line (so
  `split(" ")` and `split()` disagree), in LINES.
"""

from __future__ import annotations

from typing import Any

from faultlines.grader.checks import Broken, Checks
from faultlines.reading import DIED, Kind
from miniray import sim

checks = Checks()
LINES = ["The quick brown fox", "  jumps over  ", "the lazy  dog today"]
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
def finishes(outcome: dict, ctx: Any) -> Broken | None:
    """run_pipeline returns: no task failure reaches the caller, whatever the faults."""
    if "error" in outcome:
        given_up = _given_up(ctx)
        who = (
            f"{given_up[0]} lost its worker"
            if len(given_up) == 1
            else f"{', '.join(given_up)} lost their workers"
        )
        why = f" ({who}, and Ray did not run it again)" if given_up else ""
        # Ray gave a task up and the caller saw it: it broke there, with those attempts.
        return Broken(f"run_pipeline raised {outcome['error']}{why}", attempts=given_up, final=True)
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
    return [a.key for a in ctx.reading.given_up() if a.how == DIED]


@checks.evidence_for("gave-up-at-first-attempt")
def gave_up_first(outcome: Any, ctx: Any) -> bool:
    return any(a.endswith("/1") for a in _given_up(ctx))


@checks.evidence_for("gave-up-at-second-attempt")
def gave_up_second(outcome: Any, ctx: Any) -> bool:
    return any(a.endswith("/2") for a in _given_up(ctx))


@checks.evidence_for("submitted-again-after-a-loss")
def submitted_again(outcome: Any, ctx: Any) -> bool:
    """After Ray gave a task up, the driver submitted that stage again itself."""
    reading = ctx.reading
    lost: dict[str, int] = {}  # task -> when Ray first gave one of its calls up
    for a in reading.given_up():
        if a.how == DIED:
            lost.setdefault(a.task, a.end_index)
    return any(r.index > lost.get(r.fields["task"], r.index) for r in reading.of(Kind.TASK_SUBMIT))


@checks.evidence_for("counts-out-of-order")
def counts_out_of_order(outcome: Any, ctx: Any) -> bool:
    """The right counts, in another order."""
    counts = (outcome or {}).get("counts")
    return (
        isinstance(counts, list)
        and counts != EXPECTED
        and sorted(counts, key=str) == sorted(EXPECTED, key=str)
    )


@checks.evidence_for("split-at-single-spaces")
def split_at_single_spaces(outcome: Any, ctx: Any) -> bool:
    """The counts are what splitting at every single space gives (stripped first or not)."""
    counts = (outcome or {}).get("counts")
    ways = ([len(line.split(" ")) for line in LINES], [len(line.strip().split(" ")) for line in LINES])
    return counts in ways
