"""Scheduling strategies, as `ray.util.scheduling_strategies`."""
from __future__ import annotations


class NodeAffinitySchedulingStrategy:
    """Run on `node_id`; with soft=True fall back to other nodes when it can't."""

    def __init__(self, node_id: str, soft: bool, _spill_on_unavailable: bool = False,
                 _fail_on_unavailable: bool = False):
        self.node_id = node_id
        self.soft = soft
        self._spill_on_unavailable = _spill_on_unavailable
        self._fail_on_unavailable = _fail_on_unavailable

    def __repr__(self) -> str:
        return f"NodeAffinitySchedulingStrategy(node_id={self.node_id!r}, soft={self.soft})"
