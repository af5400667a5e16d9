"""`python -m faultlines replay TOKEN|LINK [SUBMISSION.py] [--unsafe-local]`: replay a failing
schedule, print its timeline.

Without a submission it replays on the exercise's reference (an instructor's checkout has it), or,
given a share link from the site (".../exercises/replay/#s=..."), on the code the link carries:
the run a learner sent, as they saw it. A student's code (a file, or a link's) runs in a jail,
like `grade`'s; the course's own reference runs in-process.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from faultlines.grader import exercise, grade, share, submission, tokens
from faultlines.grader.submission import BadSubmission
from faultlines.sandbox import run as jailed

from . import UsageError, isolation


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("replay", help="replay a failing schedule from its token and print the timeline")
    p.add_argument("token", help="a replay token (FL1...) or a share link (...#s=...)")
    p.add_argument("submission", nargs="?")
    isolation.add_options(p)
    p.set_defaults(run=run)


def _outcome(
    args: argparse.Namespace, ex: exercise.Exercise, token: tokens.Token, path: Path, source: str
) -> Any:
    """The replayed run: the reference in-process, anyone else's code in a jail."""
    try:
        if path == ex.reference_path or args.unsafe_local:
            sub = submission.from_source(
                source, str(path.resolve()) if path.is_file() else str(path), ex.entry, ex.line_budget
            )
            return sub, grade.replay(ex, sub, token)
        iso = isolation.choose(args, None)
        holder: dict = {}

        def work(sub: Any) -> Any:
            holder["sub"] = sub
            return grade.replay(ex, sub, token)

        done = jailed.in_jail(ex, source, path, work, iso.plan, iso.limits)
    except BadSubmission as e:
        raise UsageError(str(e)) from None
    if done.bad_input is not None:
        raise UsageError(done.bad_input)
    if done.problem is not None:
        raise UsageError(f"{path.name}: {done.problem}")
    return holder["sub"], done.value


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
    if shared is not None and not args.submission:
        path, source = Path("shared-link.py"), shared.code
    elif not path.is_file():
        raise UsageError(f"{path}: no such file")
    else:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"{path}: cannot be read ({e})") from None
    sub, outcome = _outcome(args, ex, token, path, source)
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
