"""How miniray ends a task or actor body early: the BaseExceptions it raises inside one.

    Suspended            the body blocked: it is unwound now and run again once it can go on
    WorkerExit           its worker process dies here (os._exit, sys.exit, an injected crash)
    Nondeterministic     a re-run asked another operation than its journal holds
    LineBudgetExceeded   it ran past its line budget

None is an Exception, so a learner's `except Exception` never hides one on its way out. Code that
runs a body's frames somewhere else (the course's grader runs the learner's code in another
process and re-raises these where miniray expects them) tells them apart by identity, with
BODY_ENDS, never by a class's name.
"""

from __future__ import annotations

from .execution import Suspended, WorkerExit
from .journal import Nondeterministic
from .line_budget import LineBudgetExceeded

BODY_ENDS: tuple[type[BaseException], ...] = (Suspended, WorkerExit, Nondeterministic, LineBudgetExceeded)

__all__ = ["BODY_ENDS", "Suspended", "WorkerExit", "Nondeterministic", "LineBudgetExceeded"]
