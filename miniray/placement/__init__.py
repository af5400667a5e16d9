"""Placement groups: gang reservations of bundles, the GCS queue that places them, and why it stalls.

    group.py      a group's bundles, reservations, state and stats
    fit.py        choosing nodes for unplaced bundles (PACK, SPREAD, STRICT_PACK, STRICT_SPREAD)
    queue.py      the pending queue: ranks and exponential backoff
    policies.py   what happens after a failed attempt: "ray-2.60", "backoff", or your callable
    manager.py    the one-group-at-a-time scheduling loop, node loss, and tasks placed in bundles
    diagnosis.py  the wait-for graph: cycle vs starvation, and the rescheduler hook

The Ray-shaped API is `miniray.util.placement_group`; `diagnose()` here is simulator-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import diagnosis
from .diagnosis import Diagnosis, RescheduleContext
from .manager import ATTEMPT_COST_S, PlacementManager
from .policies import POLICIES
from .queue import Backoff


def diagnose() -> Diagnosis:
    """Why the current cluster's placement groups are stuck: cycles, starvation, hot loops."""
    if _active is None:
        raise RuntimeError("miniray is not loaded: `import miniray` first")
    return diagnosis.diagnose(_active().placement)


# How diagnose() finds the active runtime. Which runtime is active is the session's to know, a
# floor up (miniray.context, which imports this package through the runtime): it hands its
# `runtime` over as it loads, and `import miniray` always loads it.
_active: Callable[[], Any] | None = None


def find_the_runtime_with(active: Callable[[], Any]) -> None:
    global _active
    _active = active


__all__ = [
    "Diagnosis",
    "RescheduleContext",
    "PlacementManager",
    "POLICIES",
    "ATTEMPT_COST_S",
    "Backoff",
    "diagnose",
]
