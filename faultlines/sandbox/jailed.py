"""The grader's Submission for code that runs in a jail, and its statement count.

`module()` loads the submission afresh in the jail for every graded run (nothing carries from
one run to the next); `counter()` reads the count the jail keeps, where the learner's code runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from faultlines.grader import budgets
from faultlines.grader.submission import Submission

from .judge import Bridge


class RemoteCounter(budgets.Counter):
    """The learner's statement count, kept where the learner's code runs: in the jail."""

    def __init__(self, bridge: Bridge, max_lines: int) -> None:
        super().__init__(max_lines)
        self.bridge = bridge

    @contextmanager
    def counting(self) -> Iterator[budgets.Counter]:
        self.bridge.reset = self.max_lines  # sent with the next message: the jail starts counting
        self.bridge.lines = 0
        with super().counting():
            try:
                yield self
            finally:
                self.lines = self.bridge.lines


class JailedSubmission(Submission):
    """A submission whose code runs in the jail; the grader uses it like any other."""

    def __init__(self, bridge: Bridge, source: str, filename: str, label: str) -> None:
        super().__init__({}, source, {filename}, label)
        self.bridge = bridge

    def module(self) -> Any:
        return self.bridge.fresh()

    def entry(self, name: str) -> Any:
        return getattr(self.bridge.fresh(), name)

    def counter(self, max_lines: int) -> budgets.Counter:
        return RemoteCounter(self.bridge, max_lines)
