"""Code links: which line of the learner's code made each event happen, as the debugger shows it.

The run's reading says which line made which record (faultlines/reading/sites.py: the journals,
and a `SiteRecorder` that the grader's reported run carries); here each event gets that line,
its text, and how it made it happen, and a site is written as a learner reads it.
"""

from __future__ import annotations

import linecache
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from faultlines.reading.sites import SiteRecorder, from_journals

from .model import Model

__all__ = ["SiteRecorder", "attach", "is_learners", "read_line", "short_site"]
# Frames of these packages are never the learner's line (the simulator, the course's harness).
NOT_LEARNER = ("miniray", "faultlines")


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


def attach(
    model: Model,
    recorded: Mapping[int, str],
    files: Iterable[str] = (),
    reader: Callable[[str], str] = read_line,
) -> Model:
    """The model with each event's learner line: from the journals first, then the listener's."""
    learner = frozenset(files)
    from_journal = from_journals(model.events, model.journals)
    events = []
    for event in model.events:
        site, why = from_journal.get(event.index, (recorded.get(event.record, ""), ""))
        if site and not is_learners(site, learner):
            site = ""
        events.append(replace(event, site=site, code=reader(site) if site else "", why=why if site else ""))
    model.events = events
    return model
