"""Liveness: failure detection, duplicate attempts, external effects and failure attribution.

    import miniray as ray
    from miniray import liveness
    ray.init(_system_config={"liveness": {"probe_interval_s": 5, "unhealthy_threshold": 3}})
    # or, on a runtime already up: liveness.enable(probe_interval_s=5, unhealthy_threshold=3)

- detector.Detector: probes turn a paused node's silence into a presumed death (zombies); with
  it on, a crashed node's tasks fail at its verdict. `state(node)` and `history(node)` answer
  what it believes now and when that changed.
- services.Services: a database, a blob store with exclusive commit, leases with fencing
  tokens; every effect stamped with virtual time and attempt id.
- attribution: per-node failure counts (only failures that implicate the node), blacklisting,
  retryable vs terminal by class.
(The generation-fleet controller model of seed 002 is course material: `faultlines.fleet`.)
Opt-in: without enable() (or the "liveness" system config key) the core behaves as before.
"""

from __future__ import annotations

from .. import context
from .attribution import RETRYABLE, TERMINAL, Attribution, TransientError, classify
from .detector import ALIVE, DEAD, SUSPECT, Detector, NodeHealthState, Transition
from .services import (
    BlobStore,
    DestinationExistsError,
    DuplicateKeyError,
    Effect,
    FencingToken,
    LeaseHeldError,
    ServiceError,
    Services,
    StaleTokenError,
)


def enable(rt=None, probe_interval_s: float = 5.0, unhealthy_threshold: int = 3) -> Detector:
    """Start the failure detector on `rt` (default: the active runtime); returns it."""
    rt = rt or context.current()
    if rt is None:
        raise RuntimeError(
            "miniray is not initialized: call miniray.init() first, or pass "
            "_system_config={'liveness': {...}} to init()."
        )
    if rt.liveness is not None:
        raise RuntimeError(
            "liveness is already enabled on this runtime; read it as "
            "miniray.liveness.detector_of() instead of enabling it twice."
        )
    return Detector(rt, probe_interval_s=probe_interval_s, unhealthy_threshold=unhealthy_threshold)


def detector_of(rt=None) -> Detector | None:
    rt = rt or context.current()
    return rt.liveness if rt is not None else None


__all__ = [
    "enable",
    "detector_of",
    "Detector",
    "ALIVE",
    "SUSPECT",
    "DEAD",
    "NodeHealthState",
    "Transition",
    "Services",
    "BlobStore",
    "ServiceError",
    "DuplicateKeyError",
    "StaleTokenError",
    "LeaseHeldError",
    "DestinationExistsError",
    "FencingToken",
    "Effect",
    "Attribution",
    "classify",
    "RETRYABLE",
    "TERMINAL",
    "TransientError",
]
