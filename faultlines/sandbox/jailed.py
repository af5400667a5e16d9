"""The grader's Submission for code that runs in a jail, and its statement count.

`module()` loads the submission afresh in the jail for every graded run (nothing carries from
one run to the next); `counter()` reads the count the jail keeps, where the learner's code runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from faultlines.grader import budgets
from faultlines.grader.submission import BadSubmission, Submission

from .judge import Bridge, LoadFailed


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


class JailLoader:
    """Every graded run's fresh load of the submission, in the jail (submission.Loader)."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge

    @contextmanager
    def fresh(self) -> Iterator[dict[str, Any]]:
        yield vars(self.bridge.fresh())


class JailedSubmission(Submission):
    """A submission whose code runs in the jail; the grader uses it like any other (it reaches a
    submission only through `load()`, `source`, `code_hash` and `counter()`)."""

    def __init__(self, bridge: Bridge, source: str, filename: str, label: str) -> None:
        super().__init__(JailLoader(bridge), source, {filename}, label)
        self.bridge = bridge

    @contextmanager
    def load(self) -> Iterator[Any]:
        """The run's module: the jail loads it afresh with the run's first request (no round trip
        of its own). Should that load fail (it loaded the first time), the grader hears it as it
        would in one process: a BadSubmission from the load."""
        try:
            yield self.bridge.fresh()
        except LoadFailed as e:
            raise BadSubmission(str(e)) from None

    def counter(self, max_lines: int) -> budgets.Counter:
        return RemoteCounter(self.bridge, max_lines)
