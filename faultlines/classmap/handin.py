"""What the class map reads: one row per submission of one exercise, however it was graded.

grade-all builds these from its per-student results (faultlines/cli/grade_all.py) and from a
folder of progress files (progress.py); nothing here grades or renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from faultlines.grader.report import Report

from .signature import Signature, of_report

GRADED = "graded"  # graded here: the report is the verdict
NOT_GRADED = "not-graded"  # bad input, a crash of the grader's sandbox, skipped: `message` says why
UNVERIFIED = "unverified"  # a progress file's claim, with no source to grade again


@dataclass
class Handin:
    key: str  # the submission's path relative to the class folder: alice.py, fault05/bob/a.py, cy.json
    student: str  # whose it is: the per-student view's row
    exercise: str
    report: Report | None = None  # None unless GRADED
    status: str = GRADED
    message: str = ""  # why it was not graded; or what a progress file claims
    claimed: Signature | None = None  # UNVERIFIED: a progress file's failure signature
    path: Path | None = None  # the file that was graded (a replay runs it again)

    @property
    def passed(self) -> bool:
        return self.status == GRADED and self.report is not None and self.report.passed

    @property
    def signature(self) -> Signature | None:
        """The verified signature of its first failure (None: passed, no verdict, not graded)."""
        if self.status != GRADED or self.report is None:
            return None
        return of_report(self.report)

    @property
    def problem(self) -> str:
        """Why there is no verdict to group: a sandbox or loading error (nondeterminism is a
        verdict, `deterministic`, grouped like any other)."""
        if self.status == NOT_GRADED:
            return self.message
        if self.report is None:
            return ""
        return self.report.error or ""


def student_of(key: str) -> str:
    """Whose a submission is, from its key in its exercise's folder: `alice.py`,
    `alice/solution.py`, `alice/` and `alice.json` are alice's."""
    parts = PurePosixPath(key.rstrip("/")).parts
    first = parts[0] if parts else key
    return first.removesuffix(".py").removesuffix(".json") if len(parts) == 1 else first
