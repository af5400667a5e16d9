"""Slow outside work that a few tests wait for, started as soon as the session knows it will run them.

Real Ray's runs of the conformance scenarios and the Pyodide pass of the unit tests are
subprocesses that take minutes and mostly use one core, while the tests before them (the
browser's, alphabetically first) leave the second core idle. So once collection is done,
`tests/conftest.py` asks every collected test module that defines
`start_in_background(items, submit)` what it needs, and those jobs run one at a time on one
thread while the other tests go on. A test then waits for its job's result: a state, never a
time.

A module's `start_in_background(items, submit)` gets its own selected items (so a deselected or
`-k`-filtered test starts nothing) and calls `submit(key, fn, *args)`. A test takes its job
with `claim(key)`: None when nothing was started (the test was run some other way) or the job
had not started yet, and then the test runs the work itself, as it would without this module.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

_pool: ThreadPoolExecutor | None = None
_jobs: dict[str, Future] = {}
_scratch: Path | None = None
_deselected: list[str] = []  # node ids the session deselected (-m, ...), noted by conftest


def scratch() -> Path:
    """A folder the background jobs may write into, removed when the session ends."""
    global _scratch
    if _scratch is None:
        _scratch = Path(tempfile.mkdtemp(prefix="faultlines-background-"))
    return _scratch


def submit(key: str, fn: Callable[..., Any], *args: Any) -> Future:
    """Queue `fn(*args)` under `key` (once: a second submit of a key returns the first job)."""
    global _pool
    if key not in _jobs:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-background")
        _jobs[key] = _pool.submit(fn, *args)
    return _jobs[key]


def claim(key: str) -> Future | None:
    """The job under `key` if it has started (running or done); None if there is none, or it
    was still queued, in which case it is taken off the queue: the caller runs the work itself,
    in the foreground, as soon as it needs it rather than after the jobs queued before it."""
    future = _jobs.get(key)
    if future is not None and future.cancel():
        del _jobs[key]
        return None
    return future


def note_deselected(items: list[Any]) -> None:
    _deselected.extend(item.nodeid for item in items)


def deselected_any(prefix: str) -> bool:
    """Whether the session deselected any test whose node id starts with `prefix`."""
    return any(nodeid.startswith(prefix) for nodeid in _deselected)


def start_for(items: list[Any]) -> None:
    """Ask each collected module with a `start_in_background` hook for its jobs, in the order
    the tests will run, so the job needed first is queued first."""
    by_module: dict[Any, list[Any]] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and hasattr(module, "start_in_background"):
            by_module.setdefault(module, []).append(item)
    for module, own in by_module.items():
        module.start_in_background(own, submit)


def shutdown() -> None:
    """Cancel what has not started, wait for what has (a subprocess ends on its own timeout)."""
    global _pool, _scratch
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None
    _jobs.clear()
    _deselected.clear()
    if _scratch is not None:
        shutil.rmtree(_scratch, ignore_errors=True)
        _scratch = None
