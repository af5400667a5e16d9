"""`python -m faultlines grade EXERCISE SUBMISSION.py [--json] [--hidden DIR]`."""

from __future__ import annotations

import argparse
from pathlib import Path

from faultlines.grader import exercise, render_json, render_text

from . import UsageError, sandbox


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("grade", help="grade one submission (exit 0 all passed, 1 some failed, 2 bad input)")
    p.add_argument("exercise")
    p.add_argument("submission")
    p.add_argument(
        "--json", action="store_true", help="print one JSON object (score, max_score, passed, ...)"
    )
    p.add_argument("--hidden", metavar="DIR", help="folder of hidden tiers: DIR/<exercise>/tiers.toml")
    p.set_defaults(run=run)


def hidden_text(directory: str | None, exercise_id: str) -> str | None:
    if directory is None:
        return None
    if not Path(directory).is_dir():
        raise UsageError(f"--hidden {directory}: no such folder")
    return exercise.hidden_tiers_text(directory, exercise_id)


def check_inputs(exercise_id: str, submission: str) -> None:
    try:
        exercise.folder_of(exercise_id)
    except exercise.ExerciseError as e:
        raise UsageError(str(e)) from None
    if not Path(submission).is_file():
        raise UsageError(f"{submission}: no such file")


def run(args: argparse.Namespace) -> int:
    check_inputs(args.exercise, args.submission)
    verdict = sandbox.run(args.exercise, Path(args.submission), hidden_text(args.hidden, args.exercise))
    if verdict.bad_input is not None:
        raise UsageError(verdict.bad_input)
    print(render_json.render(verdict.report) if args.json else render_text.render(verdict.report))
    return 0 if verdict.report.passed else 1
