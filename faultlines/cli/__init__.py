"""The instructor CLI, one module per verb: grade, grade_all, replay (and child, the sandbox's
inside). Exit status: 0 every test passed, 1 some failed, 2 bad input (one readable line)."""

from __future__ import annotations

import argparse
import sys


class UsageError(Exception):
    """Bad input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def parser() -> argparse.ArgumentParser:
    from . import grade, grade_all, replay

    top = _Parser(prog="python -m faultlines", description="Grade Fault Lines exercises.")
    verbs = top.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    grade.add_parser(verbs)
    grade_all.add_parser(verbs)
    replay.add_parser(verbs)
    return top


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
        return int(args.run(args))
    except UsageError as e:
        print(str(e).splitlines()[0] if str(e) else "bad input", file=sys.stderr)
        return 2


def entry() -> None:
    """The `faultlines` console script."""
    sys.exit(main(sys.argv[1:]))
