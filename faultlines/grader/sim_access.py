"""The one place the grader reads miniray state that miniray.sim does not return yet.

Wanted from miniray (so this module can go): `sim.Run` carrying the attempts it recorded with
their interaction counts (it has them as `points.attempts`, but only for the runtime sim.run
itself started), and a public way to read the last runtime's log records.
"""

from __future__ import annotations

from typing import Any


def attempts(rt: Any) -> list[tuple[str, int]]:
    return list(rt.faults.attempts)


def log_text(rt: Any) -> str:
    return rt.log.text() if rt is not None else ""
