"""Ray's `ray.util` pieces that miniray mirrors."""

from .placement_group import (
    get_current_placement_group,
    get_placement_group,
    placement_group,
    placement_group_table,
    remove_placement_group,
)
from .scheduling_strategies import NodeAffinitySchedulingStrategy, PlacementGroupSchedulingStrategy

__all__ = [
    "get_current_placement_group",
    "get_placement_group",
    "placement_group",
    "placement_group_table",
    "remove_placement_group",
    "NodeAffinitySchedulingStrategy",
    "PlacementGroupSchedulingStrategy",
]
