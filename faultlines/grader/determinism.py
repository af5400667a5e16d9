"""Nondeterminism is a verdict: two runs of one schedule that differ break `deterministic`.

Every run loads the submission afresh and miniray replays its clock, ids and scheduling, so two
executions of one schedule can differ only when the code reads something miniray does not
replay. Such a run has no other verdict worth giving (the next run may pass, or fail another
way), so it fails its tier, and what the report says comes from the runs themselves: the first
record that differs between them (faultlines/reading/differ.py), never from the learner's source.
"""

from __future__ import annotations

import re

from faultlines.reading.differ import SAME_RECORDS, Difference, first_difference, shown

from .report import Hint
from .runner import Outcome

DETERMINISTIC = "deterministic"
EXPLANATION = (
    "Two runs of your code under the same schedule of faults must do the same thing: miniray "
    "replays its clock, ids and scheduling, so only a value read from elsewhere (a random number "
    "without a seed, a uuid, the wall clock, the hash of a str, an id()) can make them differ."
)


def compare(first: Outcome, again: Outcome) -> Difference | None:
    """Where two executions of one schedule part; None when their traces are the same, or differ
    only in bookkeeping (`shown`: the moment a reference cycle's object was freed is the
    garbage collector's, so correct code holding one is not called nondeterministic)."""
    if first.trace == again.trace:
        return None
    a, b = shown(first.records), shown(again.records)
    if [r.line() for r in a] == [r.line() for r in b] and _after_log(first) == _after_log(again):
        return None
    return first_difference(a, b) or SAME_RECORDS


def _after_log(outcome: Outcome) -> str:
    """The trace's effects and verdict (runner.py writes them after the log)."""
    return outcome.trace.partition("\n--effects--\n")[2]


def hint_id(difference: Difference) -> str:
    """The hint's id names what differed, so a class map groups such submissions by it."""
    return "nondeterministic-" + re.sub(r"[^a-z0-9]+", "-", difference.what.lower()).strip("-")


def hint(difference: Difference) -> Hint:
    fields = ", ".join(difference.fields)
    where = f"the {fields} of {difference.subject}" if fields else difference.subject
    if not difference.kind:
        where = "the verdict"
    return Hint(
        hint_id(difference),
        [
            f"Two runs of the same schedule differed: {difference.sentence}. Every check needs your "
            "code to do the same thing each time it meets the same faults.",
            f"So {where} depends on something miniray does not replay and that changes from one run "
            "to the next (a random number without a seed, a uuid, the wall clock, the hash of a "
            "str, an id()). Find where your code makes that value.",
            "Derive it from the task's inputs (an idempotency key from the order, say), or from "
            "miniray, whose clock, ids and a random.Random(seed) of your own replay.",
        ],
    )


def detail(difference: Difference) -> str:
    return f"two runs of the same schedule differed: {difference.sentence}"
