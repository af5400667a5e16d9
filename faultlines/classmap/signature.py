"""What makes two failures the same mistake: a failure's signature.

Two submissions that break the same invariant of the same exercise version on the same minimal
schedule, in its canonical words (canonical.py), and get the same catalogued hint made the same
mistake, whatever their names. The hint is part of the key: when two mistakes break the same
invariant on the same schedule, the run's evidence is what tells them apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from faultlines.grader.report import Failure, Report

UNMATCHED = "no-known-mistake"  # the grader's hint id when no catalogued mistake matched


@dataclass(frozen=True, order=True)
class Signature:
    exercise: str
    version: int
    invariant: str
    schedule: tuple[str, ...]  # canonical, or raw when `canonical` is False (a progress file's)
    hint: str  # the catalogued hint's id; "" when no catalogued mistake matched
    canonical: bool = True

    @property
    def named(self) -> bool:
        """A catalogued mistake explains it."""
        return bool(self.hint)

    @property
    def schedule_text(self) -> str:
        return "; ".join(self.schedule)


def hint_id(failure: Failure) -> str:
    hint = failure.hint
    return "" if hint is None or hint.id == UNMATCHED else hint.id


def of_failure(exercise: str, version: int, failure: Failure) -> Signature:
    canonical = failure.canonical
    schedule = tuple(canonical) if canonical is not None else tuple(failure.schedule)
    return Signature(exercise, version, failure.invariant, schedule, hint_id(failure), canonical is not None)


def of_report(report: Report) -> Signature | None:
    """The signature of a report's first failure; None when it passed or could not be graded.
    Two executions of a schedule that differed are a verdict like any other (the invariant
    `deterministic`), and its hint's id names what differed (grader/determinism.py), so such
    submissions group by what differed."""
    failure = report.first_failure
    if report.error or failure is None:
        return None
    return of_failure(report.exercise, report.version, failure)


def of_progress(exercise: str, last_failure: dict[str, Any]) -> Signature:
    """A progress file's claim (docs/design/progress-file.md, `last_failure`): the raw schedule,
    as the learner's browser recorded it, never regraded."""
    hint = str(last_failure.get("hint") or "")
    return Signature(
        exercise,
        int(last_failure.get("version") or 0),
        str(last_failure.get("invariant", "")),
        tuple(str(t) for t in last_failure.get("schedule") or ()),
        "" if hint == UNMATCHED else hint,
        canonical=False,
    )
