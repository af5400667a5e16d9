"""A folder of learners' exported progress files, read for the class map.

A progress file (docs/design/progress-file.md) is what the site's Exercises page exports: for
each exercise tried, its status and version and, from version 2 on, the source the learner last
checked and the last failure's signature. A class that never uploads code can still be mapped
from what learners choose to hand in:

- an exercise with its source is graded again, here, like any submission (its file is written
  under OUT/sources/<file>/<exercise>.py, so a replay can run it);
- one with a signature and no source is shown as that claim, unverified;
- a version-1 file (statuses only) still reads: its exercises are shown unverified.

Each file is one student: `alice.json` is alice's, and its key in groups.csv.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .handin import UNVERIFIED, Handin
from .signature import of_progress

FORMAT = "fault-lines-progress"
NEWEST = 2


class NotAProgressFile(ValueError):
    """str(self) says why, in one line."""


@dataclass
class ToGrade:
    key: str  # the progress file's path in the class folder
    student: str
    exercise: str
    path: Path  # the source, written out


@dataclass
class ProgressFolder:
    to_grade: list[ToGrade] = field(default_factory=list)
    claims: list[Handin] = field(default_factory=list)  # UNVERIFIED rows
    problems: list[tuple[str, str]] = field(default_factory=list)  # (file, why it was not read)


def looks_like(folder: Path) -> bool:
    """A folder of progress files: .json files at its top, and no Python anywhere in it."""
    return any(folder.glob("*.json")) and not any(folder.rglob("*.py"))


def read(path: Path) -> tuple[int, dict[str, dict[str, Any]]]:
    """(format version, exercises by id) of one file; NotAProgressFile if it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise NotAProgressFile(f"not JSON ({str(e).splitlines()[0][:120]})") from None
    if not isinstance(data, dict):
        raise NotAProgressFile("it holds no progress")
    if data.get("format") == FORMAT:
        version = data.get("version")
        if not isinstance(version, int) or version > NEWEST:
            raise NotAProgressFile(f"it is version {version} of the format, made by a newer course site")
    elif "exercises" in data and "version" not in data:
        version = 1  # version 1 had no format field: {"exercises": {id: {status, version, code, at}}}
    else:
        raise NotAProgressFile("it is not a Fault Lines progress file")
    exercises = data.get("exercises")
    if not isinstance(exercises, dict) or not all(isinstance(e, dict) for e in exercises.values()):
        raise NotAProgressFile("its exercises are not a table of entries")
    return version, exercises


def _claim(key: str, student: str, exercise: str, file_version: int, entry: dict[str, Any]) -> Handin:
    last = entry.get("last_failure")
    status, version = entry.get("status", "?"), entry.get("version", "?")
    if isinstance(last, dict) and last.get("invariant"):
        return Handin(key, student, exercise, status=UNVERIFIED, claimed=of_progress(exercise, last))
    message = f"progress file version {file_version}: {status} on v{version}, with no source to grade again"
    return Handin(key, student, exercise, status=UNVERIFIED, message=message)


def collect(folder: Path, exercises: set[str] | None, sources: Path) -> ProgressFolder:
    """Every progress file in `folder`, for `exercises` (None: every exercise they mention).
    Sources to grade are written under `sources`."""
    found = ProgressFolder()
    for path in sorted(folder.glob("*.json")):
        key, student = path.name, path.stem
        try:
            file_version, entries = read(path)
        except NotAProgressFile as e:
            found.problems.append((key, str(e)))
            continue
        for exercise, entry in sorted(entries.items()):
            if exercises is not None and exercise not in exercises:
                continue
            if entry.get("status") in (None, "started"):
                continue  # opened, never checked: nothing to grade or claim
            source = entry.get("source")
            if isinstance(source, str) and source.strip():
                target = sources / student / f"{exercise}.py"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(source, encoding="utf-8")
                found.to_grade.append(ToGrade(key, student, exercise, target))
            else:
                found.claims.append(_claim(key, student, exercise, file_version, entry))
    return found
