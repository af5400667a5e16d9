"""What grade-all has to grade, from the class folder it is given, in batches of one exercise.

    grade-all fault05 FOLDER        FOLDER holds fault05's submissions (classroom.py)
    grade-all all FOLDER            FOLDER holds one folder per exercise: FOLDER/fault05/alice.py
    grade-all fault05|all FOLDER    FOLDER holds learners' progress files (alice.json): the
                                    sources they carry are graded, the rest is a claim
                                    (faultlines/classmap/progress.py)

A batch's rows (summary.csv, the Gradescope files) are keyed as grading that exercise's folder
alone would key them; in the class map each key is the submission's path relative to FOLDER
(`alice.py`, `fault05/alice.py`, `alice.json`). Results go to OUT/summary.csv for one exercise,
OUT/<exercise>/ for several.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from faultlines.classmap import progress
from faultlines.classmap.handin import Handin, student_of
from faultlines.grader import exercise

from . import UsageError, classroom
from .classroom import Student

ALL = "all"


@dataclass
class Batch:
    exercise: str
    students: list[Student]
    out: Path  # where its summary.csv and Gradescope files go
    prefix: str = ""  # a key's folder in the class folder: "fault05/" under `all`
    whose: dict[str, str] = field(default_factory=dict)  # key -> student, for the per-student view

    def student(self, key: str) -> str:
        return self.whose.get(key) or student_of(key)


@dataclass
class Plan:
    batches: list[Batch]
    claims: list[Handin] = field(default_factory=list)  # progress-file claims, never graded
    problems: list[str] = field(default_factory=list)  # files that were not read, one line each


def _exercise_folders(folder: Path) -> list[str]:
    known = set(exercise.exercise_ids())
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name in known)


def _from_progress(folder: Path, chosen: str, out: Path, sources: Path) -> Plan:
    known = set(exercise.exercise_ids())
    wanted = known if chosen == ALL else {chosen}
    found = progress.collect(folder, wanted, sources)
    plan = Plan([], found.claims, [f"{name}: {why}" for name, why in found.problems])
    for ex_id in sorted({g.exercise for g in found.to_grade}):
        mine = [g for g in found.to_grade if g.exercise == ex_id]
        target = out if chosen != ALL else out / ex_id
        plan.batches.append(
            Batch(
                ex_id, [Student(g.key, g.path) for g in mine], target, whose={g.key: g.student for g in mine}
            )
        )
    if not plan.batches and not plan.claims:
        raise UsageError(f"{folder}: its progress files hold no exercise that was checked")
    return plan


def plan(folder: Path, chosen: str, out: Path, sources: Path) -> Plan:
    """The batches of `folder` for `chosen` (an exercise id, or `all`); `sources`: where a
    progress file's sources are written out to be graded."""
    if progress.looks_like(folder):
        return _from_progress(folder, chosen, out, sources)
    if chosen != ALL:
        entries = exercise.load(chosen).entry
        students = classroom.find(folder, entries, exclude=[out, sources.parent])
        if not students:
            raise UsageError(f"{folder}: no submissions (*.py, or a folder of .py files per student)")
        return Plan([Batch(chosen, students, out)])
    batches = []
    for ex_id in _exercise_folders(folder):
        students = classroom.find(folder / ex_id, exercise.load(ex_id).entry, exclude=[out, sources.parent])
        if students:
            batches.append(Batch(ex_id, students, out / ex_id, prefix=f"{ex_id}/"))
    if not batches:
        raise UsageError(
            f"{folder}: no exercise folders with submissions in it (all needs FOLDER/<exercise>/, "
            "such as fault05/), and no progress files"
        )
    return Plan(batches)
