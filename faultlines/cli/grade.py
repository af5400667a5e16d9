"""`python -m faultlines grade EXERCISE SUBMISSION.py [--json] [--hidden DIR] [--unsafe-local]`.

EXERCISE is an exercise's id or its folder (`fault01`, `exercises/fault01`, `exercises/fault01/`:
what tab completion gives). The submission is graded with the judge in this process and its code
in a jail (cli/isolation.py says how, and what happens on a machine without bubblewrap).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from faultlines.grader import exercise, render_json, render_text, submission
from faultlines.sandbox import source

from . import UsageError, isolation


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The verb's arguments, on the parser cli/__init__ made for it (with its help line)."""
    p.add_argument("exercise", help="an exercise's id (fault05) or its folder (exercises/fault05)")
    p.add_argument("submission")
    p.add_argument(
        "--json", action="store_true", help="print one JSON object (score, max_score, passed, ...)"
    )
    p.add_argument("--hidden", metavar="DIR", help="folder of hidden tiers: DIR/<exercise>/tiers.toml")
    isolation.add_options(p)
    p.set_defaults(run=run)


def exercise_id(given: str) -> str:
    """`fault01`, or the id of the exercise folder given as a path (`exercises/fault01/`)."""
    path = Path(given)
    if given != path.name or given.endswith("/"):
        if (path / "exercise.toml").is_file():
            return path.resolve().name
        raise UsageError(f"{given}: not an exercise folder (it has no exercise.toml)")
    return given


def hidden_text(directory: str | None, exercise_id: str) -> str | None:
    if directory is None:
        return None
    if not Path(directory).is_dir():
        raise UsageError(f"--hidden {directory}: no such folder")
    return exercise.hidden_tiers_text(directory, exercise_id)


def check_exercise(exercise_id: str) -> None:
    try:
        exercise.folder_of(exercise_id)
    except exercise.ExerciseError as e:
        raise UsageError(str(e)) from None


def shown_source(path: Path) -> list[str]:
    """Under a submission's bad-input line: a syntax error's line and caret, if it has one."""
    try:
        return submission.syntax_excerpt(source.read(path))
    except (OSError, UnicodeDecodeError):
        return []


def run(args: argparse.Namespace) -> int:
    args.exercise = exercise_id(args.exercise)
    check_exercise(args.exercise)
    if not Path(args.submission).is_file():
        raise UsageError(f"{args.submission}: no such file")
    refused = source.refusal(Path(args.submission))  # a link is not graded as what it points to
    if refused is not None:
        raise UsageError(f"{args.submission}: {refused}")
    hidden = hidden_text(args.hidden, args.exercise)
    iso = isolation.choose(args, "--hidden" if args.hidden else None)
    verdict = isolation.grade_one(iso, args.exercise, Path(args.submission), hidden)
    if verdict.bad_input is not None:
        raise UsageError(verdict.bad_input, shown_source(Path(args.submission)))
    print(render_json.render(verdict.report) if args.json else render_text.render(verdict.report))
    return 0 if verdict.report.passed else 1
