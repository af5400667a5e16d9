"""Shared helpers of the grader tests: grade a file or a source string of an exercise."""

from __future__ import annotations

import hashlib
from pathlib import Path

from faultlines.grader import exercise, grade, submission
from faultlines.grader.report import Report

REPO = Path(__file__).resolve().parents[2]


def grade_file(exercise_id: str, path: Path) -> Report:
    ex = exercise.load(exercise_id)
    sub = submission.from_file(path, ex.entry, ex.line_budget)
    return grade.grade(ex, sub)


def grade_source(exercise_id: str, source: str, name: str = "inline.py") -> Report:
    ex = exercise.load(exercise_id)
    sub = submission.from_source(source, name, ex.entry, ex.line_budget)
    return grade.grade(ex, sub)


def fingerprint(report: Report) -> dict:
    """What must be identical in CPython and Pyodide: verdicts, schedules, the failing run's trace."""
    tiers = []
    for tier in report.tiers:
        entry = {"passed": tier.passed, "schedules": tier.schedules}
        if tier.failure is not None:
            f = tier.failure
            trace = "\n".join(f.timeline) + "\n" + "\n".join(f.effects)
            entry.update(
                invariant=f.invariant,
                schedule=f.schedule,
                hint=f.hint.id if f.hint else None,
                trace=hashlib.sha256(trace.encode()).hexdigest()[:16],
            )
        tiers.append(entry)
    return {"score": report.score, "tiers": tiers}
