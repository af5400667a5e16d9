"""grade-all's judge: a process that grades submissions one after another, each one's code in a
jail of its own, and answers each with its verdict as one JSON line.

grade-all runs `--jobs` of them (judges.py starts them and reads them). A submission that breaks
its jail costs its own row; one that somehow took its judge down costs its row too, and the next
submission gets a new judge. The first line on stdin is the setup (the parent's jail plan, so no
probe again, the limits, the exercise); then one line per submission. The process dies with
grade-all (PR_SET_PDEATHSIG), and its jail with it.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from pathlib import Path

from faultlines.grader import exercise
from faultlines.sandbox import run
from faultlines.sandbox.jail import Limits, Plan

PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent went before the death signal was set
        os._exit(1)


def main() -> None:
    setup = json.loads(sys.stdin.readline())
    _die_with(int(setup["parent"]))
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))  # close the jail
    plan, limits = Plan.from_dict(setup["plan"]), Limits(**setup["limits"])
    ex = exercise.load(setup["exercise"], hidden=setup["hidden"])  # once: the checks stay loaded
    for line in sys.stdin:
        path = Path(json.loads(line)["path"])
        verdict = run.grade_file(ex.id, path, plan=plan, limits=limits, ex=ex)
        out = {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
