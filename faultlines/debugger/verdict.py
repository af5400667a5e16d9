"""What the debugger says about a run: which invariant broke (or that it holds), and at which event.

An exercise's invariants judge a run once it has ended, from what the scenario returned, so
"the moment it broke" is read back from the events:
- a detail that names attempts ("gateway calls by process_order#1/1, process_order#1/2") broke
  when the last of them made its first call to a service (the second charge);
- an error the run raised broke at the last failure that was final: a task that died or
  raised with no retry left, or an actor that became DEAD;
- anything else is placed at the run's last event, and says it was judged at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Model

ATTEMPT_IN_TEXT = re.compile(r"[\w.\-]+#\d+/\d+")


@dataclass(frozen=True)
class Verdict:
    watched: str  # the invariant the learner came to debug ("" for a run with no invariants)
    violations: tuple[tuple[str, str], ...] = ()
    judged: bool = True  # False: a plain sim.run, with nothing to judge it by
    outcome: str = ""  # what the run returned or raised

    @property
    def failed(self) -> bool:
        return bool(self.violations)

    def sentence(self) -> str:
        if not self.judged:
            return f"The run {self.outcome}." if self.outcome else "The run ended."
        if not self.violations:
            if self.watched:
                return f"{self.watched} holds on this run, and so does every other invariant."
            return "Every invariant holds on this run."
        name, detail = self.violations[0]
        if self.watched and name != self.watched:
            return f"{self.watched} holds, but another invariant breaks: {name}: {detail}"
        return f"Broken invariant: {name}: {detail}"


@dataclass(frozen=True)
class Moment:
    index: int  # the event (0-based)
    label: str  # what the lanes write beside the mark
    at_end: bool  # placed at the end because the events do not say when


def moment(model: Model, verdict: Verdict) -> Moment | None:
    if not verdict.violations or not model.events:
        return None
    name, detail = verdict.violations[0]
    events = model.events
    named = ATTEMPT_IN_TEXT.findall(detail)
    if named:
        firsts = []
        for attempt in dict.fromkeys(named):
            calls = [e.index for e in events if e.kind == "effect" and e.fields.get("attempt") == attempt]
            if calls:
                firsts.append(calls[0])
        if firsts:
            return Moment(max(firsts), f"{name} broken", False)
    if "rais" in detail or "Error" in detail:
        final = [
            e.index
            for e in events
            if (e.kind in ("task.fail", "task.error") and not e.fields.get("retry"))
            or (e.kind == "actor.state" and e.fields.get("state") == "DEAD")
        ]
        if final:
            return Moment(final[-1], f"{name} broken", False)
    return Moment(events[-1].index, f"{name} judged at the end", True)
