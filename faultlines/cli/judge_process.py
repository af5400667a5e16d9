"""One grade-all judge: grade one submission, its code in a jail, and print the verdict as JSON.

grade-all starts one per submission, so a submission that breaks its jail, or a judge that
crashes for any reason, costs one row and never the class. The request comes on stdin (the
parent's jail plan, so no probe again); the verdict is the one line on stdout. The process dies
with grade-all (PR_SET_PDEATHSIG), and its jail dies with it.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from pathlib import Path

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
    request = json.loads(sys.stdin.read())
    _die_with(int(request["parent"]))
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))  # close the jail
    limits = Limits(**request["limits"])
    verdict = run.grade_file(
        request["exercise"], Path(request["path"]), request["hidden"], Plan.from_dict(request["plan"]), limits
    )
    out = {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
