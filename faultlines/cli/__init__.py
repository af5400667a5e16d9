"""The instructor CLI, one module per verb: grade, grade_all, replay. Exit status: 0 every test
passed, 1 some failed, 2 bad input (one readable line), 130 interrupted.

How a student's code is run (a jail, or in-process when asked) is cli/isolation.py's; the
jailed side itself is faultlines.sandbox. `local` and `child` are `--unsafe-local`'s grading;
`judge_process` is grade-all's judge: one process per submission, forked fresh from a template
that loads the exercise once (`judges` starts the templates). `signals`: SIGTERM as Terminated.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import os
import signal
import sys

from faultlines.grader.safe_text import visible

from .signals import Terminated, install


class UsageError(Exception):
    """Bad input: printed as one line, exit status 2. `shown`: lines printed under it, made by
    the grader (a syntax error's line and caret), never the learner's own text."""

    def __init__(self, message: str, shown: list[str] | None = None) -> None:
        super().__init__(message)
        self.shown = list(shown or [])


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


# Each verb: its module (cli/<module>.py, with `add_arguments` and `run`) and its help line. A
# verb's module is imported only when that verb runs, otter-grader style: `grade --help` loads
# the grader and the jail, never the debugger, the class map or the widgets `replay` and
# `grade-all --report` need (tests/cli/test_verbs_load.py holds it).
VERBS: dict[str, tuple[str, str]] = {
    "grade": ("grade", "grade one submission (exit 0 all passed, 1 some failed, 2 bad input)"),
    "grade-all": ("grade_all", "grade a folder of submissions: CSV summary, Gradescope results"),
    "replay": ("replay", "replay a failing schedule from its token and print the timeline"),
}


def chosen_verb(argv: list[str]) -> str | None:
    """The verb argv names: the top parser takes no option with a value, so it is the first
    word that is not an option (None for `--help` alone, or no verb)."""
    return next((a for a in argv if not a.startswith("-")), None)


def parser(argv: list[str]) -> argparse.ArgumentParser:
    """The CLI's parser: every verb listed with its help line, and the arguments of the verb
    argv names, whose module is imported now."""
    chosen = chosen_verb(argv)
    top = _Parser(prog="python -m faultlines", description="Grade Fault Lines exercises.")
    verbs = top.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    for name, (module, text) in VERBS.items():
        p = verbs.add_parser(name, help=text)
        if name == chosen:
            importlib.import_module(f"{__name__}.{module}").add_arguments(p)
    return top


def main(argv: list[str]) -> int:
    install()  # SIGTERM unwinds like Ctrl-C (signals.py), never as the learner's sys.exit()
    if hasattr(signal, "SIGUSR1"):
        # `kill -USR1 <pid>` prints every thread's stack to stderr: a stuck grade-all says where.
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        args = parser(argv).parse_args(argv)
        status = int(args.run(args))
        sys.stdout.flush()  # here, not at exit: a reader that went away (`| head`) is handled below
        return status
    except UsageError as e:
        line = str(e).splitlines()[0] if str(e) else "bad input"
        print("\n".join([visible(line), *e.shown]), file=sys.stderr)  # a submission's words, shown escaped
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Terminated as e:
        print("\nterminated", file=sys.stderr)
        return 128 + e.signum
    except BrokenPipeError:
        # The reader closed the pipe (`grade ... | head`): no traceback, and no second error when
        # the interpreter flushes stdout on its way out.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def entry() -> None:
    """The `faultlines` console script."""
    sys.exit(main(sys.argv[1:]))
