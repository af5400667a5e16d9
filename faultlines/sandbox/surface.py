"""What the jail is told of the judge's table (miniray.api_surface), with hello: the names it
forwards and nothing it decides. The judge checks every request against the table itself."""

from __future__ import annotations

import functools

from miniray.api_surface import CLOCK, OPERATIONS, SHIPPED


@functools.cache
def for_the_jail() -> dict:
    api = {}
    for name, op in OPERATIONS.items():
        writes = [op.writes, op.positional().index(op.writes)] if op.writes else None
        api[name] = writes
    return {"api": api, "clock": list(CLOCK), "shipped": sorted(SHIPPED)}
