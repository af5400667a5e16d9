"""Code links: which line of the learner's code made each event happen.

Two sources, both public:
- the run's journals (`sim.Run.journals`): each attempt's calls to the cluster, in order, with
  the learner's `file:line` of each. An effect record is its attempt's next call of that
  service; a crash fault "crash f#1/1 step=k" struck just before the attempt's call k;
- a listener (`SiteRecorder`) that hears each record as it is logged and notes the innermost
  frame of the learner's files then on the stack: the driver's own calls (a `.remote()` in
  `run_pipeline`) have no journal. Only records a call makes are noted: a task that starts or
  returns is the event loop's doing, even while the driver waits in `ray.get`.
"""

from __future__ import annotations

import linecache
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from .kinds import split_attempt
from .model import Event, Model

# Records made by a call in the code that runs (a submit, an actor's creation, a service call,
# a get that copies an object, os._exit in a body), as opposed to the event loop's own doing.
CALL_KINDS = frozenset(
    {
        "task.submit",
        "actor.create",
        "actor.kill",
        "task.cancel",
        "effect",
        "pg.create",
        "cluster.remove_node",
        "object.copy",
        "worker.exit",
        "worker.signal",
    }
)
CRASH_STEP = re.compile(r"(before|after) step (\d+) of ")
# Frames of these packages are never the learner's line (the simulator, the course's harness).
NOT_LEARNER = ("miniray", "faultlines")


class SiteRecorder:
    """A `sim.on_record` listener: record index -> "file:line" of the innermost frame in `files`."""

    def __init__(self, files: Iterable[str]) -> None:
        self.files = frozenset(files)
        self.sites: dict[int, str] = {}

    def __call__(self, record: Any) -> None:
        if record.kind not in CALL_KINDS or not self.files:
            return
        if "injected" in str(record.fields.get("reason", "")):
            return  # a crash the schedule injected: no line of the learner's called it
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename in self.files:
                self.sites[record.index] = f"{frame.f_code.co_filename}:{frame.f_lineno}"
                return
            frame = frame.f_back  # type: ignore[assignment]


def read_line(site: str) -> str:
    """The text of "file:line" (a notebook cell's lines are in linecache too), stripped."""
    path, _, number = site.rpartition(":")
    if not number.isdigit():
        return ""
    return linecache.getline(path, int(number)).strip()


def is_learners(site: str, files: frozenset[str]) -> bool:
    path = site.rpartition(":")[0]
    if files:
        return path in files
    parts = re.split(r"[\\/]", path)
    return not any(p in NOT_LEARNER for p in parts[:-1])


NOTEBOOK_CELL = re.compile(r"^<ipython-input-(\d+)-[0-9a-f]+>$")


def short_site(site: str) -> str:
    """ "/work/sub.py:14" -> "sub.py:14"; a notebook cell "<ipython-input-2-5e4...>:3" -> "cell [2],
    line 3" (what the cell's prompt shows)."""
    path, _, number = site.rpartition(":")
    name = re.split(r"[/\\\\]", path)[-1]
    cell = NOTEBOOK_CELL.match(name)
    if cell:
        return f"cell [{cell[1]}], line {number}"
    return f"{name}:{number}" if path else site


def journal_sites(
    events: list[Event], faults: list[str], journals: Mapping[str, list[tuple[str, str]]]
) -> dict[int, tuple[str, str]]:
    """Event index -> (file:line, why) from the journals: service calls and crash faults."""
    out: dict[int, tuple[str, str]] = {}
    used: dict[tuple[str, str], int] = {}  # (attempt, op) -> entries of that op matched so far
    for event in events:
        f = event.fields
        if event.kind == "effect":
            attempt = str(f["attempt"])
            op = f"{f['service']}.{f['op']}"
            entries = [site for name, site in journals.get(attempt, []) if name == op]
            n = used.get((attempt, op), 0)
            used[(attempt, op)] = n + 1
            if n < len(entries) and entries[n]:
                out[event.index] = (entries[n], f"{attempt} called {op} here")
        elif event.fault.startswith("crash "):
            site = _crash_site(event, journals)
            if site:
                out[event.index] = site
    return out


def _crash_site(event: Event, journals: Mapping[str, list[tuple[str, str]]]) -> tuple[str, str] | None:
    attempt = str(event.fields.get("attempt", ""))
    match = CRASH_STEP.search(str(event.fields.get("reason", "")))
    if match is None:
        return None
    step = int(match[2])
    call, _ = split_attempt(attempt)
    # A body makes the same calls each time it runs: a later attempt of the same call that got
    # further shows which call the crash came before.
    for key, entries in journals.items():
        if split_attempt(key)[0] == call and step < len(entries) and entries[step][1]:
            op, site = entries[step]
            return site, f"the crash struck just before {attempt}'s call {step} ({op})"
    return None


def attach(
    model: Model,
    recorded: Mapping[int, str],
    files: Iterable[str] = (),
    reader: Callable[[str], str] = read_line,
) -> Model:
    """The model with each event's learner line: from the journals first, then the listener's."""
    learner = frozenset(files)
    from_journal = journal_sites(model.events, model.faults, model.journals)
    events = []
    for event in model.events:
        site, why = from_journal.get(event.index, (recorded.get(event.record, ""), ""))
        if site and not is_learners(site, learner):
            site = ""
        events.append(replace(event, site=site, code=reader(site) if site else "", why=why if site else ""))
    model.events = events
    return model
