"""How the CLI runs a student's code: jailed, in a plain separate process, or (asked for) in-process.

- "jail": the judge here, the learner's code in a bubblewrap jail (faultlines.sandbox). The
  default wherever the probe finds bubblewrap working.
- "process": the same split, without bubblewrap, on a machine that lacks it. Only `grade`
  without hidden tiers takes this, and says so in one line: the learner's code still cannot
  forge a report or patch the judge, but it can read and write what its user can.
- "unsafe-local": `--unsafe-local`, today's grading in one interpreter (cli/local.py), for a
  learner checking their own work. Never the default.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from faultlines.sandbox import machine, run
from faultlines.sandbox.jail import Limits, Plan
from faultlines.sandbox.run import Verdict

from . import UsageError, local


@dataclass(frozen=True)
class Isolation:
    mode: str  # "jail", "process" or "unsafe-local"
    plan: Plan | None
    limits: Limits


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--unsafe-local",
        action="store_true",
        help="grade in-process, without the sandbox (for your own code only: a submission can fake its grade)",
    )
    p.add_argument(
        "--wall-seconds",
        type=float,
        metavar="S",
        help="wall-clock limit per submission, sleeping included (default 300, or $FAULTLINES_WALL_SECONDS)",
    )


def choose(args: argparse.Namespace, needs_sandbox: str | None) -> Isolation:
    """The mode for this command; `needs_sandbox` names what refuses to run without bubblewrap."""
    if args.wall_seconds is not None and args.wall_seconds <= 0:
        raise UsageError("--wall-seconds must be more than 0")
    if args.unsafe_local:  # today's behaviour, today's last-resort wall limit unless one is given
        return Isolation("unsafe-local", None, Limits(wall_seconds=args.wall_seconds or local.WALL_SECONDS))
    limits = Limits() if args.wall_seconds is None else Limits(wall_seconds=args.wall_seconds)
    plan = machine.probe()
    if plan.jailed:
        return Isolation("jail", plan, limits)
    if needs_sandbox:
        raise UsageError(
            f"{needs_sandbox} needs the grader's sandbox, and there is none here: {plan.why_not}. "
            "Or pass --unsafe-local to grade without it (a submission can then fake its grade)."
        )
    print(
        f"note: no sandbox ({plan.why_not}): the submission runs in a separate process, "
        "without bubblewrap's isolation",
        file=sys.stderr,
    )
    return Isolation("process", plan, limits)


def grade_one(iso: Isolation, exercise: str, path: Path, hidden: str | None) -> Verdict:
    if iso.mode == "unsafe-local":
        return local.run(exercise, path, hidden, wall_seconds=iso.limits.wall_seconds)
    run.limit_judge(iso.limits)  # this process is the judge of one submission
    return run.grade_file(exercise, path, hidden, iso.plan, iso.limits)
