"""Compare with a passing run: which one, and the first event where the two runs part.

The passing run is the learner's own run without the decisive fault. The shrinker left a
minimal schedule, so removing one fault either makes the run pass or changes the failure: the
first fault whose removal passes is the decisive one. When no removal passes (the code fails
with no faults at all), a public fixed schedule has the reference solution's run, recorded at
build time as events (recorded.py), to compare with instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from .model import Event, Model


@dataclass(frozen=True)
class Difference:
    index: int  # the first event (0-based) where the runs differ
    time: float
    ours: str  # what happened there in the learner's run ("" if it had ended)
    theirs: str  # and in the passing run

    def sentence(self, theirs_name: str = "the passing run") -> str:
        ours = f"in your run, {self.ours}" if self.ours else "your run has ended"
        theirs = f"in {theirs_name}, {self.theirs}" if self.theirs else f"{theirs_name} has ended"
        return f"The runs first differ at event {self.index + 1} ({self.time:.3f} s): {ours}; {theirs}."


def _same(a: Event, b: Event) -> bool:
    # By kind and fields (as JSON: a run recorded as data has lists where a live one has tuples).
    return (
        a.time == b.time
        and a.kind == b.kind
        and json.dumps(a.fields, default=str) == json.dumps(b.fields, default=str)
    )


def first_difference(ours: Model, theirs: Model) -> Difference | None:
    for a, b in zip(ours.events, theirs.events):
        if not _same(a, b):
            return Difference(a.index, a.time, a.text, b.text)
    if len(ours.events) == len(theirs.events):
        return None
    shorter = min(len(ours.events), len(theirs.events))
    longer = ours.events if len(ours.events) > shorter else theirs.events
    extra = longer[shorter]
    return Difference(
        shorter,
        extra.time,
        extra.text if longer is ours.events else "",
        extra.text if longer is theirs.events else "",
    )


@dataclass(frozen=True)
class Passing:
    """The run to compare with, and how it was found."""

    model: Model
    name: str  # "your run without crash clean#2/1 step=0"
    decisive: str = ""  # the fault whose removal made the run pass ("" if none did)


def find_passing(
    schedule: tuple[str, ...],
    passes: Callable[[tuple[str, ...]], Model | None],
    recorded: Callable[[], Model | None],
) -> Passing | None:
    """`passes(schedule)` runs the learner's code under a schedule: its model if the run passes,
    else None. `recorded()` is the reference's recorded run on this schedule, if there is one."""
    for index, token in enumerate(schedule):
        model = passes(schedule[:index] + schedule[index + 1 :])
        if model is not None:
            return Passing(model, f"your run without {token}", token)
    if len(schedule) > 1:
        model = passes(())
        if model is not None:
            return Passing(model, "your run with no faults")
    model = recorded()
    if model is not None:
        return Passing(model, "the reference solution's run on the same schedule (recorded as events)")
    return None
