"""SIGTERM ends grading as Ctrl-C does: an exception of its own, never SystemExit.

`timeout`, a batch system or grade-all stopping its judges send SIGTERM. Raised as SystemExit it
would be taken for the learner's own `sys.exit()` whenever it landed while a task body ran in the
judge's simulation (miniray ends that body's worker, as Ray does, and the grading goes on, blamed
on the submission). Terminated is a BaseException that is neither SystemExit nor Exception:
nothing in miniray or the grader catches it, every jail is closed on the way out (their `finally`),
and the CLI exits 128 + the signal.
"""

from __future__ import annotations

import signal
from types import FrameType


class Terminated(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(f"terminated by signal {signum}")
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


def install() -> None:
    signal.signal(signal.SIGTERM, _raise)
