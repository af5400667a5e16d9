"""What the debugger says about a run: which invariant broke (or that it holds), and at which event.

A violation carries what the run shows of it (faultlines/reading/violations.py: the record at
which it broke, the attempts that broke it, whether Ray gave up); the moment is read from that,
never from its prose.
"""

from __future__ import annotations

from dataclasses import dataclass

from faultlines.reading import Moment, moment

from .model import Model

__all__ = ["Moment", "Verdict", "moment_of"]


@dataclass(frozen=True)
class Verdict:
    watched: str  # the invariant the learner came to debug ("" for a run with no invariants)
    violations: tuple[tuple[str, str], ...] = ()  # each a reading.Violation (or a plain pair)
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


def moment_of(model: Model, verdict: Verdict) -> Moment | None:
    """Where the first violation broke, in the model's run."""
    if not verdict.violations:
        return None
    return moment(model.reading, verdict.violations[0])
