"""A class folder: who submitted what, and each student's result, keyed by the submission's path.

    submissions/alice.py              -> "alice.py"
    submissions/alice/solution.py     -> "alice/solution.py"  (beside alice.py: two rows, two keys)
    submissions/bob/{a.py, b.py}      -> the file that defines the exercise's entry functions, or
                                         one row "bob/" saying it is ambiguous
    submissions/cy/ (no .py)          -> one row "cy/" saying so
    submissions/notes.txt             -> one row "notes.txt": not a Python file
    submissions/eve.py -> elsewhere   -> one row "eve.py": a symbolic link, not graded (and so
                                         for a FIFO or a device: not a regular file)

Nothing is dropped without a row. A submission is a regular file inside the class folder: a
symbolic link (to a file, or a student's folder) is never followed, and inside a student's
folder only regular files are candidates. A folder with several .py files is read with `ast`
only (never run) to find which one defines every entry function at its top level.

`StudentResult` is one row, apart from how it is written (summary.py renders the CSV and the
Gradescope files); a class map built later groups these by the same key.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

from faultlines.grader.report import Report
from faultlines.sandbox import source
from faultlines.sandbox.run import failed

GRADED, BAD_INPUT, CRASHED, SKIPPED = "graded", "bad-input", "crashed", "skipped"


@dataclass(frozen=True)
class Student:
    key: str  # the path relative to the class folder: a file ("alice.py") or a folder ("bob/")
    path: Path | None  # the file to grade; None when there is none to choose (`problem` says why)
    problem: str = ""


@dataclass
class StudentResult:
    key: str
    report: Report
    status: str = GRADED  # GRADED, BAD_INPUT (cannot be graded), CRASHED (the grader's sandbox), SKIPPED
    message: str = ""  # the bad input, the crash or why it was skipped

    @property
    def passed(self) -> bool:
        return self.status == GRADED and self.report.passed

    @property
    def first_failure(self) -> str:
        if self.message:
            return self.message
        failure = self.report.first_failure
        return self.report.error or (f"{failure.invariant}: {failure.detail}" if failure else "")


def skipped(exercise_id: str, student: Student) -> StudentResult:
    return StudentResult(student.key, failed(exercise_id, student.problem), SKIPPED, student.problem)


def _ignored(path: Path) -> bool:
    return path.name.startswith(".") or path.name == "__pycache__"


def find(folder: Path, entries: list[str], exclude: list[Path]) -> list[Student]:
    """Every student of `folder`, in the order of their keys. `exclude`: folders that are not
    students (the results folder)."""
    left_out = {p.resolve() for p in exclude}
    students: list[Student] = []
    for path in sorted(folder.iterdir()):
        if _ignored(path) or (not path.is_symlink() and path.resolve() in left_out):
            continue
        why = source.refusal(path)
        if why == source.SYMLINK or (why is not None and not path.is_dir()):
            students.append(Student(path.name, None, why))
        elif path.is_dir():
            students.append(_one_of(folder, path, entries))
        elif path.suffix == ".py":
            students.append(Student(path.name, path))
        else:
            students.append(Student(path.name, None, "not a Python file, not graded"))
    return students


def _python_files(student: Path) -> tuple[list[Path], list[Path]]:
    """(regular .py files, .py names that are links or special files) under `student`, never
    through a link to a folder."""
    files: list[Path] = []
    refused: list[Path] = []
    for root, dirs, names in os.walk(student):  # os.walk never follows a link to a folder
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            path = Path(root) / name
            if name.endswith(".py") and not name.startswith("."):
                (refused if source.refusal(path) else files).append(path)
    return files, refused


def _one_of(folder: Path, student: Path, entries: list[str]) -> Student:
    key = f"{student.name}/"
    files, refused = _python_files(student)
    if not files:
        if refused:
            return Student(_key(folder, refused[0]) if len(refused) == 1 else key, None, source.SYMLINK)
        return Student(key, None, "no .py file in it, not graded")
    if len(files) == 1:
        return Student(_key(folder, files[0]), files[0])
    names = ", ".join(entries)
    defining = [p for p in files if _defines(p, entries)]
    if len(defining) == 1:
        return Student(_key(folder, defining[0]), defining[0])
    if not defining:
        return Student(key, None, f"none of its {len(files)} .py files defines {names}, not graded")
    which = " and ".join(_key(folder, p) for p in defining)
    return Student(key, None, f"ambiguous: {which} each define {names}; not graded")


def source_of(path: Path) -> str:
    """A submission's text, read as a regular file only (never through a link)."""
    return source.read(path)


def _key(folder: Path, path: Path) -> str:
    return path.relative_to(folder).as_posix()


def _defines(path: Path, entries: list[str]) -> bool:
    """Whether the file's top level binds every entry name (read with ast, never run)."""
    try:
        tree = ast.parse(source.read(path), str(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return False
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return all(name in bound for name in entries)
