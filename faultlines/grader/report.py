"""Plain result dataclasses of a grading: no rendering here (see render_*.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Hint:
    id: str
    levels: list[str]  # progressive: a nudge first, more of the answer in later levels
    known: bool = True  # False: no catalogued mistake matched; the levels explain the invariant


@dataclass
class Failure:
    invariant: str  # verbatim name of the broken invariant ("progress", "step-budget", ...)
    detail: str  # the concrete detail: "order 17 charged 2 times"
    scenario: str
    schedule: list[str]  # minimal: shrunk before it is reported
    token: str  # versioned replay token
    replay_call: str  # one line that replays it
    timeline: list[str]  # the failing run's event log, one line per record
    effects: list[str] = field(default_factory=list)
    hint: Hint | None = None
    # What differed between two executions of the schedule (invariant `deterministic`: a
    # reading.differ.Difference's `what`, "gateway.charge key"); None when they did not.
    nondeterminism: str | None = None
    shrunk_from: int = 0  # length of the schedule as found
    moves: list[str] = field(default_factory=list)  # each schedule move in plain words
    # The schedule in words that do not depend on the learner's names or step counts
    # (faultlines/grader/canonical.py): what a class map groups on. None: not computed.
    canonical: list[str] | None = None

    def signature(self, version: int) -> dict[str, Any]:
        """What groups failures across a class: the same broken invariant, minimal schedule and
        hint on the same version of the exercise is the same mistake (an instructor's class map,
        which groups on the canonical schedule: faultlines/classmap/signature.py)."""
        return {
            "invariant": self.invariant,
            "schedule": list(self.schedule),
            "canonical": list(self.canonical) if self.canonical is not None else None,
            "hint": self.hint.id if self.hint is not None else None,
            "version": version,
        }


@dataclass
class TierResult:
    name: str
    kind: str
    points: float
    earned: float
    passed: bool
    schedules: int  # schedules run in this tier
    failure: Failure | None = None
    hidden: bool = False


@dataclass
class Report:
    exercise: str
    title: str
    version: int
    code_hash: str
    tiers: list[TierResult] = field(default_factory=list)
    error: str | None = None  # the submission could not be graded at all (one line)

    @property
    def score(self) -> float:
        return sum(t.earned for t in self.tiers)

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tiers)

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.tiers) and all(t.passed for t in self.tiers)

    @property
    def first_failure(self) -> Failure | None:
        return next((t.failure for t in self.tiers if t.failure is not None), None)

    @property
    def schedules(self) -> int:
        return sum(t.schedules for t in self.tiers)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(score=self.score, max_score=self.max_score, passed=self.passed, schedules=self.schedules)
        for tier, result in zip(data["tiers"], self.tiers):
            if result.failure is not None:
                tier["failure"]["signature"] = result.failure.signature(self.version)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        tiers = []
        for t in data.get("tiers", []):
            failure = t.get("failure")
            if failure is not None:
                hint = failure.get("hint")
                fields = {k: v for k, v in failure.items() if k != "signature"}  # derived, not stored
                failure = Failure(**{**fields, "hint": Hint(**hint) if hint else None})
            tiers.append(TierResult(**{**t, "failure": failure}))
        return cls(
            exercise=data["exercise"],
            title=data["title"],
            version=data["version"],
            code_hash=data["code_hash"],
            tiers=tiers,
            error=data.get("error"),
        )
