"""`python -m faultlines replay TOKEN [SUBMISSION.py]`: replay a failing schedule, print its timeline.

Without a submission it replays on the exercise's reference (an instructor's checkout has it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from faultlines.grader import exercise, grade, submission, tokens
from faultlines.grader.submission import BadSubmission

from . import UsageError


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("replay", help="replay a failing schedule from its token and print the timeline")
    p.add_argument("token")
    p.add_argument("submission", nargs="?")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        token = tokens.decode(args.token)
        ex = exercise.load(token.exercise)
        tokens.check_version(token, ex.version)
    except (tokens.TokenError, exercise.ExerciseError) as e:
        raise UsageError(str(e)) from None
    path = Path(args.submission) if args.submission else ex.reference_path
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    try:
        sub = submission.from_file(path, ex.entry, ex.line_budget)
    except BadSubmission as e:
        raise UsageError(str(e)) from None
    outcome = grade.replay(ex, sub, token)
    if sub.code_hash != token.code_hash:
        print(f"note: the token was found on other code ({token.code_hash}); replaying on {path.name}")
    print(
        f"{ex.id} v{ex.version}, scenario {token.scenario}, schedule: {'; '.join(token.schedule) or '(no faults)'}"
    )
    for line in outcome.log:
        print(f"  {line}")
    if outcome.effects:
        print("effects:")
        for line in outcome.effects:
            print(f"  {line}")
    if outcome.violations:
        for name, detail in outcome.violations:
            print(f"broken invariant: {name}: {detail}")
        return 1
    print("every invariant holds on this run")
    return 0
