"""Scheduling strategies, as `ray.util.scheduling_strategies` (which re-exports them).

They live below the public `util` package because `options` builds one for Ray's legacy
`.options(placement_group=...)` spelling, and options sits on the lowest floor.
"""

from __future__ import annotations


class NodeAffinitySchedulingStrategy:
    """Run on `node_id`; with soft=True fall back to other nodes when it can't."""

    def __init__(
        self,
        node_id: str,
        soft: bool,
        _spill_on_unavailable: bool = False,
        _fail_on_unavailable: bool = False,
    ):
        self.node_id = node_id
        self.soft = soft
        self._spill_on_unavailable = _spill_on_unavailable
        self._fail_on_unavailable = _fail_on_unavailable

    def __repr__(self) -> str:
        return f"NodeAffinitySchedulingStrategy(node_id={self.node_id!r}, soft={self.soft})"


class PlacementGroupSchedulingStrategy:
    """Run inside a placement group's bundle (`placement_group_bundle_index`, -1 for any)."""

    def __init__(
        self,
        placement_group,
        placement_group_bundle_index: int = -1,
        placement_group_capture_child_tasks: bool | None = None,
    ):
        count = getattr(placement_group, "bundle_count", None)
        if count is None:
            raise TypeError(
                "PlacementGroupSchedulingStrategy needs the PlacementGroup that "
                "miniray.util.placement_group() returned."
            )
        if not -1 <= placement_group_bundle_index < count:
            raise ValueError(
                f"placement_group_bundle_index {placement_group_bundle_index} is out of "
                f"range: the group has {count} bundles (use 0..{count - 1}, or -1 for any)."
            )
        self.placement_group = placement_group
        self.placement_group_bundle_index = placement_group_bundle_index
        self.placement_group_capture_child_tasks = placement_group_capture_child_tasks

    def __repr__(self) -> str:
        return (
            f"PlacementGroupSchedulingStrategy(placement_group={self.placement_group.id}, "
            f"placement_group_bundle_index={self.placement_group_bundle_index})"
        )
