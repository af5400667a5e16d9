"""Scheduling strategies, as `ray.util.scheduling_strategies`."""

from ..strategies import NodeAffinitySchedulingStrategy, PlacementGroupSchedulingStrategy

__all__ = ["NodeAffinitySchedulingStrategy", "PlacementGroupSchedulingStrategy"]
