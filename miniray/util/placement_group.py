"""`ray.util.placement_group`: reserve bundles of resources across nodes, all or nothing.

    from miniray.util.placement_group import placement_group, placement_group_table, remove_placement_group
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", name="PG_A")
    miniray.get(pg.ready())            # blocks until the group is CREATED
    task.options(scheduling_strategy=PlacementGroupSchedulingStrategy(pg, 0)).remote()

The scheduling itself (queue, policies, recovery after node loss) lives in `miniray.placement`.
"""

from __future__ import annotations

from .. import api, context
from ..copying import shared
from ..placement.group import STRATEGIES


class PlacementGroupID(str):
    """The id as Ray prints it; `.hex()` as on Ray's PlacementGroupID."""

    def hex(self) -> str:
        return str(self)


@shared
class PlacementGroup:
    """A handle to a placement group, as `placement_group()` returns it."""

    def __init__(self, pg_id: str, bundles: list):
        self.id = PlacementGroupID(pg_id)
        self.bundle_specs = [dict(b) for b in bundles]

    @property
    def bundle_count(self) -> int:
        return len(self.bundle_specs)

    def __repr__(self) -> str:
        return f"PlacementGroup(id={self.id}, bundle_count={self.bundle_count})"

    def __eq__(self, other) -> bool:
        return isinstance(other, PlacementGroup) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def _group(self):
        rt = context.runtime()
        group = rt.placement.groups.get(self.id)
        if group is None:
            raise ValueError(
                f"Placement group {self.id} is not in this cluster; it was created by "
                "another miniray session. Create it again after init()."
            )
        return rt, group

    def ready(self):
        """An ObjectRef that resolves (to this handle) once the group is CREATED."""
        rt, group = self._group()

        def live():
            owner = rt.caller()
            ref = rt.objects.create(owner)
            rt.placement.ready_entry(group, rt.objects.entries[ref.hex()], self)
            return ref

        return context.interact(rt, live, "placement_group.ready")

    def wait(self, timeout_seconds: float = 30) -> bool:
        """True once the group is CREATED; False if `timeout_seconds` of virtual time pass first."""
        ready, _ = api.wait([self.ready()], timeout=timeout_seconds)
        return bool(ready)


def placement_group(
    bundles: list,
    strategy: str = "PACK",
    name: str = "",
    lifetime=None,
    _soft_target_node_id=None,
    bundle_label_selector: list | None = None,
) -> PlacementGroup:
    """Ask for `bundles` (a list of resource dicts) to be reserved under `strategy`."""
    if not isinstance(bundles, list) or not bundles:
        raise ValueError(
            "The placement group `bundles` argument must be a non-empty list of "
            "resource dicts, e.g. [{'CPU': 1}, {'CPU': 1}]."
        )
    for b in bundles:
        if not isinstance(b, dict) or not b:
            raise ValueError(f"Bundles must be non-empty dicts of resource name to amount; got {b!r}.")
        for k, v in b.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
                raise ValueError(f"Bundle resource amounts must be non-negative numbers: {k}={v!r}.")
        if all(v == 0 for v in b.values()):
            raise ValueError(
                f"Bundles cannot contain only zero resources: {b!r}. Ask for at least "
                "one resource, e.g. {'CPU': 1}."
            )
    if strategy not in STRATEGIES:
        raise ValueError(
            f"Invalid placement group strategy {strategy!r}. Supported strategies are: {list(STRATEGIES)}."
        )
    if lifetime not in (None, "detached"):
        raise ValueError("Placement group `lifetime` argument must be either `None` or 'detached'.")
    selectors = bundle_label_selector if bundle_label_selector is not None else [{}] * len(bundles)
    if len(selectors) != len(bundles):
        raise ValueError(
            f"bundle_label_selector has {len(selectors)} entries for {len(bundles)} "
            "bundles; give one selector dict per bundle (use {} for no constraint)."
        )
    rt = context.runtime()
    mgr = rt.placement
    if not rt._current:  # a synchronous GCS call: with the GCS dead the driver waits (miniray/head)
        rt.gcs.block("ray.util.placement_group() waits for the GCS")

    def live():  # journaled inside a task body: a replay must not see its own group as a clash
        if name and any(g.name == name and g.state != "REMOVED" for g in mgr.groups.values()):
            raise ValueError(
                f"Failed to create placement group '{name}' because name is already "
                "taken; pick another name or remove_placement_group() the old one."
            )
        pg_id = rt.ids.new("pg")
        mgr.create(pg_id, [dict(b) for b in bundles], strategy, name, [dict(s) for s in selectors])
        return PlacementGroup(pg_id, bundles)

    return context.interact(rt, live, "placement_group")


def remove_placement_group(placement_group: PlacementGroup) -> None:
    """Release the group's reservations; a removed group never comes back."""
    if not isinstance(placement_group, PlacementGroup):
        raise TypeError(
            f"remove_placement_group() takes a PlacementGroup, got {type(placement_group).__name__}."
        )
    rt, group = placement_group._group()
    context.interact(rt, lambda: rt.placement.remove(group), "remove_placement_group")


def get_placement_group(placement_group_name: str) -> PlacementGroup:
    rt = context.runtime()
    for g in rt.placement.groups.values():
        if g.name == placement_group_name and g.state != "REMOVED":
            return PlacementGroup(g.pg_id, [b.resources for b in g.bundles])
    raise ValueError(f"Failed to look up placement group with name: {placement_group_name}")


def get_current_placement_group() -> PlacementGroup | None:
    """The group the calling task or actor was scheduled into, or None (always None in the driver)."""
    rt = context.runtime()
    if not rt._current:
        return None
    worker = rt.caller()
    opts: dict = worker.actor.opts if worker.actor is not None else (worker.task.opts if worker.task else {})
    pg = getattr(opts.get("scheduling_strategy"), "placement_group", None)
    return pg if isinstance(pg, PlacementGroup) else None


def placement_group_table(placement_group: PlacementGroup | None = None) -> dict:
    """Every group's state and stats keyed by id, or one group's entry."""
    rt = context.runtime()
    table = context.interact(rt, lambda: rt.placement.table(), "placement_group_table")
    if placement_group is None:
        return table
    return table.get(placement_group.id, {})


__all__ = [
    "PlacementGroup",
    "placement_group",
    "remove_placement_group",
    "get_placement_group",
    "get_current_placement_group",
    "placement_group_table",
]
