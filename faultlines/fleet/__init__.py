"""The generation-fleet controller model of seed 002 (NeMo-RL's SingleController), on miniray's kernel.

    controller.py  the model: shards, probes, restarts, refits and rollouts on a virtual clock
    scenarios.py   seed 002's scenarios A, B, C and its "what waits for what" table
    trace.py       a fleet run as a Chrome trace (Perfetto), like `miniray.timeline()`

It is course material, not Ray semantics, so it lives here rather than in `miniray.liveness`.
"""

from __future__ import annotations

from .controller import DEAD, HEALTHY, RESTARTING, STALE, SUSPECT, Fleet, FleetConfig
from .trace import fleet_timeline

__all__ = ["Fleet", "FleetConfig", "fleet_timeline", "HEALTHY", "SUSPECT", "DEAD", "RESTARTING", "STALE"]
