"""Counted budgets for a learner's code: lines executed and call depth, never time.

A trace function counts `line` events in the learner's own frames only (miniray's and the
grader's frames are not counted), so a budget means the same thing in CPython 3.11 and in
Pyodide's 3.14, up to small differences in how each version numbers lines. Budgets are set at
ten times what the reference solution needs, so a verdict never hinges on an exact count.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

DEFAULT_MAX_DEPTH = 60  # far below CPython's and Pyodide's recursion limits, so both stop here


class LearnerBudgetExceeded(BaseException):
    """The learner's code ran past a budget. A BaseException so `except Exception` can't hide it."""


class LineCounter:
    def __init__(self, files: set[str], max_lines: int, max_depth: int = DEFAULT_MAX_DEPTH):
        self.files = files
        self.max_lines = max_lines
        self.max_depth = max_depth
        self.lines = 0
        self.depth = 0
        self.peak_lines = 0

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
            if self.lines > self.max_lines:
                raise LearnerBudgetExceeded(
                    f"step budget exhausted: your code ran more than {self.max_lines} lines in one run "
                    f"(the reference needs about a tenth of that). Does a loop never end?"
                )
        elif event == "return":
            self.depth -= 1
        return self._local

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename not in self.files:
            return None
        self.depth += 1
        if self.depth > self.max_depth:
            self.depth = 0
            raise LearnerBudgetExceeded(
                f"call depth budget exhausted: your code nested more than {self.max_depth} calls "
                f"({frame.f_code.co_name} calls itself without end?)"
            )
        return self._local

    @contextmanager
    def counting(self) -> Iterator[LineCounter]:
        """Count (from zero) while the block runs; the trace is removed afterwards whatever happens."""
        self.lines = 0
        self.depth = 0
        saved = sys.gettrace()
        sys.settrace(self._global)
        try:
            yield self
        finally:
            sys.settrace(saved)
            self.peak_lines = max(self.peak_lines, self.lines)
