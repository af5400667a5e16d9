"""The exercise's own catalogue of mistakes (exercises/<id>/wrong/catalogue.toml), by signature.

Each catalogued wrong solution is graded here, in this process (it is the course's code, not a
student's), so that a group can say which catalogued mistake it is ("no_key.py: a crash after
the charge makes Ray's retry charge again"), and, when two catalogued mistakes land on one
signature, that the catalogue cannot tell them apart. An installed faultlines has no wrong/
folder (it is never shipped): the map then names hints only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from faultlines.grader import exercise, grade, submission
from faultlines.grader.submission import BadSubmission

from .signature import Signature, of_report


@dataclass(frozen=True)
class Catalogued:
    file: str  # its name in wrong/
    hint: str  # the hint the catalogue expects
    why: str  # the catalogue's one line: what the mistake is


@cache
def by_signature(exercise_id: str, hidden: str | None = None) -> dict[Signature, tuple[Catalogued, ...]]:
    """Every catalogued mistake of the exercise under the signature it fails with."""
    ex = exercise.load(exercise_id, hidden=hidden)
    found: dict[Signature, list[Catalogued]] = {}
    for wrong in ex.wrong_solutions():
        try:
            sub = submission.from_file(wrong.path, ex.entry, ex.line_budget)
        except BadSubmission:
            continue  # the exercise's own tests catch a broken catalogue entry
        signature = of_report(grade.grade(ex, sub))
        if signature is not None:
            found.setdefault(signature, []).append(Catalogued(wrong.path.name, wrong.hint, wrong.why))
    return {sig: tuple(entries) for sig, entries in found.items()}
