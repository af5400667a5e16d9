"""State in a module that is not copied by value: every simulated worker shares it (miniray's
one-interpreter limit; on Ray each worker process would import this module afresh)."""

from __future__ import annotations

import itertools

_RUNS = itertools.count()


def next_run() -> int:
    """0 the first time anyone calls it, then 1, 2, ...: differs between a body's runs."""
    return next(_RUNS)


def reset() -> None:
    global _RUNS
    _RUNS = itertools.count()
