"""Which line of the learner's code made each event happen.

Two sources, both public:
- the run's journals (`sim.Run.journals`): each attempt's calls to the cluster, in order, with
  the learner's `file:line` of each. An effect record is its attempt's next call of that
  service; a crash fault "crash f#1/1 step=k" struck just before the attempt's call k;
- a listener (`SiteRecorder`) that hears each record as it is logged and notes the innermost
  frame of the learner's files then on the stack: the driver's own calls (a `.remote()` in
  `run_pipeline`) have no journal. Only records a call makes (the table's `site` column) are
  noted: a task that starts or returns is the event loop's doing, even while the driver waits
  in `ray.get`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Any

from miniray.sim import Kind, parse_token

from . import table
from .fold import Event, injected_crash
from .state import split_attempt

Journals = Mapping[str, list[tuple[str, str]]]


def _by_a_call(row: table.Row) -> bool:
    return row.site


class SiteRecorder:
    """A `sim.on_record` listener: record index -> "file:line" of the innermost frame in `files`."""

    def __init__(self, files: Iterable[str]) -> None:
        self.files = frozenset(files)
        self.sites: dict[int, str] = {}
        self._made_by_calls = table.where(_by_a_call)

    def __call__(self, record: Any) -> None:
        if not self.files or record.kind not in self._made_by_calls:
            return
        if injected_crash(record.fields):
            return  # a crash the schedule injected: no line of the learner's called it
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename in self.files:
                self.sites[record.index] = f"{frame.f_code.co_filename}:{frame.f_lineno}"
                return
            frame = frame.f_back  # type: ignore[assignment]


def from_journals(events: list[Event], journals: Journals) -> dict[int, tuple[str, str]]:
    """Event index -> (file:line, why) from the journals: service calls and crash faults."""
    out: dict[int, tuple[str, str]] = {}
    used: dict[tuple[str, str], int] = {}  # (attempt, op) -> entries of that op matched so far
    for event in events:
        f = event.fields
        if event.kind == Kind.EFFECT:
            attempt = str(f["attempt"])
            op = f"{f['service']}.{f['op']}"
            entries = [site for name, site in journals.get(attempt, []) if name == op]
            n = used.get((attempt, op), 0)
            used[(attempt, op)] = n + 1
            if n < len(entries) and entries[n]:
                out[event.index] = (entries[n], f"{attempt} called {op} here")
        elif event.fault:
            site = _crash_site(event, journals)
            if site:
                out[event.index] = site
    return out


def _crash_site(event: Event, journals: Journals) -> tuple[str, str] | None:
    fault = parse_token(event.fault)
    if fault.kind != "crash" or fault.step is None:
        return None
    attempt = str(event.fields.get("attempt", ""))
    step = fault.step
    call, _ = split_attempt(attempt)
    # A body makes the same calls each time it runs: a later attempt of the same call that got
    # further shows which call the crash came before.
    for key, entries in journals.items():
        if split_attempt(key)[0] == call and step < len(entries) and entries[step][1]:
            op, site = entries[step]
            return site, f"the crash struck just before {attempt}'s call {step} ({op})"
    return None
