"""`python -m faultlines replay TOKEN|LINK [SUBMISSION.py] [--html FILE]`: replay a failing schedule,
print its timeline; with --html, also write the debugger as one standalone offline page.

Without a submission it replays on the exercise's reference (an instructor's checkout has it), or,
given a share link from the site (".../exercises/replay/#s=..."), on the code the link carries:
the run a learner sent, as they saw it.
"""

from __future__ import annotations

import argparse
from html import escape
from pathlib import Path

from faultlines.debugger import page
from faultlines.debugger.session import ExerciseSource
from faultlines.grader import exercise, grade, share, submission, tokens
from faultlines.grader.submission import BadSubmission

from . import UsageError


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("replay", help="replay a failing schedule from its token and print the timeline")
    p.add_argument("token", help="a replay token (FL1...) or a share link (...#s=...)")
    p.add_argument("submission", nargs="?")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the debugger for this run as one offline HTML page (to attach to feedback)",
    )
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
    if args.html:
        _write_page(Path(args.html), ex, sub, token, outcome.violations, path.name)
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


def _write_page(
    target: Path,
    ex: exercise.Exercise,
    sub: submission.Submission,
    token: tokens.Token,
    violations: list[tuple[str, str]],
    code_name: str,
) -> None:
    watched = violations[0][0] if violations else ""
    source = ExerciseSource(ex, sub, token.scenario, watched)
    snap = source.run(token.schedule)
    intro = (
        f"<p>{escape(ex.id)} v{ex.version} ({escape(ex.title)}), scenario {escape(token.scenario)}, "
        f"replayed on <code>{escape(code_name)}</code> from the token <code>{escape(token.encode())}</code>.</p>"
    )
    try:
        page.write(target, source, snap, f"Debugger: a run of {ex.id}", intro)
    except OSError as e:
        raise UsageError(f"{target}: cannot write the page ({e.strerror})") from None
    print(f"wrote {target}: the debugger for this run, one offline page")
