"""A body's line budget: lines of the learner's code counted (not timed), so a loop that never
ends stops at the same line on every machine. The body run (miniray/execution.py) installs the
counter while its body runs; `body` is that BodyRun (its `key` and running `lines` count)."""

from __future__ import annotations

from typing import Any


class LineBudgetExceeded(BaseException):
    """Raised inside a body past its line budget; BaseException so `except Exception` can't eat it."""


def line_counter(body: Any, budget: int):
    """A trace function counting lines of user code only, so the count is the same everywhere."""
    package = __name__.rsplit(".", 1)[0]  # "miniray": its own frames are not the learner's

    def local(frame, event, arg):
        if event == "line":
            body.lines += 1
            if body.lines > budget:
                raise LineBudgetExceeded(
                    f"line budget exhausted: {body.key} ran more than {budget} lines "
                    f"(max_body_lines). Does a loop in it never end? Raise the budget with "
                    f"miniray.sim.set_budget(max_body_lines=...) if the work is just long."
                )
        return local

    def global_(frame, event, arg):
        if frame.f_globals.get("__name__", "").startswith(package):
            return None
        return local

    return global_
