"""`python -m faultlines replay TOKEN|LINK [SUBMISSION.py] [--html FILE] [--unsafe-local]`: replay
a failing schedule, print its timeline; with --html, also write the debugger as one standalone
offline page.

Without a submission it replays on the exercise's reference (an instructor's checkout has it), or,
given a share link from the site (".../exercises/replay/#s=..."), on the code the link carries:
the run a learner sent, as they saw it. A student's code (a file, or a link's) runs in a jail,
like `grade`'s; the course's own reference runs in-process.
"""

from __future__ import annotations

import argparse
from html import escape
from pathlib import Path
from typing import Any

from faultlines.debugger import page
from faultlines.debugger.session import ExerciseSource
from faultlines.grader import exercise, grade, render_text, share, submission, tokens
from faultlines.grader.submission import BadSubmission
from faultlines.sandbox import run as jailed
from faultlines.sandbox.source import read as read_submission

from . import UsageError, isolation


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The verb's arguments, on the parser cli/__init__ made for it (with its help line)."""
    p.add_argument("token", help="a replay token (FL1...) or a share link (...#s=...)")
    p.add_argument("submission", nargs="?")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the debugger for this run as one offline HTML page (to attach to feedback)",
    )
    isolation.add_options(p)
    p.set_defaults(run=run)


def _outcome(
    args: argparse.Namespace, ex: exercise.Exercise, token: tokens.Token, path: Path, source: str
) -> tuple[Any, Any, str]:
    """(the submission, the replayed run, what --html wrote): the reference in-process, anyone
    else's code in a jail (the debugger page too is drawn from a run made there)."""

    def replay(sub: Any) -> tuple[Any, Any, str]:
        outcome = grade.replay(ex, sub, token)
        wrote = (
            _write_page(Path(args.html), ex, sub, token, outcome.violations, path.name) if args.html else ""
        )
        return sub, outcome, wrote

    try:
        if path == ex.reference_path or args.unsafe_local:
            name = str(path.resolve()) if path.is_file() else str(path)
            return replay(submission.from_source(source, name, ex.entry, ex.line_budget))
        iso = isolation.choose(args, None)
        done = jailed.in_jail(ex, source, path, replay, iso.plan, iso.limits)
    except BadSubmission as e:
        raise UsageError(str(e), submission.syntax_excerpt(source)) from None
    if done.bad_input is not None:
        raise UsageError(done.bad_input, submission.syntax_excerpt(source))
    if done.problem is not None:
        raise UsageError(f"{path.name}: {done.problem}")
    return done.value


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
            source = read_submission(path)  # a link is refused, never followed
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"{path}: cannot be read ({e})") from None
    sub, outcome, wrote = _outcome(args, ex, token, path, source)
    if wrote:
        print(wrote)
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
            print(f"broken invariant: {name}: {render_text.plain(detail)}")
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
) -> str:
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
    return f"wrote {target}: the debugger for this run, one offline page"
