"""`python -m faultlines replay TOKEN|LINK [SUBMISSION.py]`: replay a failing schedule, print its timeline.

Without a submission it replays on the exercise's reference (an instructor's checkout has it), or,
given a share link from the site (".../exercises/replay/#s=..."), on the code the link carries:
the run a learner sent, as they saw it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from faultlines.grader import exercise, grade, share, submission, tokens
from faultlines.grader.submission import BadSubmission

from . import UsageError


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("replay", help="replay a failing schedule from its token and print the timeline")
    p.add_argument("token", help="a replay token (FL1...) or a share link (...#s=...)")
    p.add_argument("submission", nargs="?")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    shared = None
    try:
        if "#" in args.token:
            shared = share.decode(args.token)
            token = tokens.decode(shared.token)
        else:
            token = tokens.decode(args.token)
        ex = exercise.load(token.exercise)
        tokens.check_version(token, ex.version)
    except (tokens.TokenError, share.ShareError, exercise.ExerciseError) as e:
        raise UsageError(str(e)) from None
    path = Path(args.submission) if args.submission else ex.reference_path
    try:
        if shared is not None and not args.submission:
            path = Path("shared-link.py")
            sub = submission.from_source(shared.code, str(path), ex.entry, ex.line_budget)
        elif not path.is_file():
            raise UsageError(f"{path}: no such file")
        else:
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
