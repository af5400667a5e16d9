"""A placement group's record: its bundles, where each is reserved, its state and its stats.

A reserved bundle works as in Ray: the bundle's resources leave the node's ordinary pool and
come back as node resources named after the group (`CPU_group_<i>_<pgid>` for bundle i and the
wildcard `CPU_group_<pgid>`). A task placed in the group asks for those names instead of `CPU`,
so plain tasks can never use reserved capacity and the group's tasks can never use anything else.
"""

from __future__ import annotations

from ..cluster import Node

STATES = ("PENDING", "CREATED", "RESCHEDULING", "REMOVED")
STRATEGIES = ("PACK", "SPREAD", "STRICT_PACK", "STRICT_SPREAD")
# Ray's PlacementGroupStats.scheduling_state values.
SCHEDULING_STATES = (
    "QUEUED",
    "REMOVED",
    "SCHEDULING_STARTED",
    "NO_RESOURCES",
    "INFEASIBLE",
    "FAILED_TO_COMMIT_RESOURCES",
    "FINISHED",
)


def bundle_resource(name: str, pg_id: str, index: int | None = None) -> str:
    return f"{name}_group_{pg_id}" if index is None else f"{name}_group_{index}_{pg_id}"


def formatted(demand: dict, pg_id: str, index: int) -> dict:
    """A task's demand rewritten to a bundle's resource names (index -1: any bundle)."""
    out: dict[str, float] = {}
    for name, qty in demand.items():
        out[bundle_resource(name, pg_id)] = qty
        if index >= 0:
            out[bundle_resource(name, pg_id, index)] = qty
    return out


class Bundle:
    __slots__ = ("index", "resources", "selector", "node")

    def __init__(self, index: int, resources: dict, selector: dict):
        self.index = index
        self.resources = {k: float(v) for k, v in resources.items() if v > 0}
        self.selector = dict(selector or {})
        self.node: Node | None = None  # the cluster.Node holding the reservation, or None while unplaced

    def reserve(self, node, pg_id: str) -> None:
        """Move the bundle's resources from the node's pool into the group's named resources."""
        node.acquire(self.resources)
        for name, qty in self.resources.items():
            for key in (bundle_resource(name, pg_id, self.index), bundle_resource(name, pg_id)):
                node.total[key] = node.total.get(key, 0.0) + qty
                node.available[key] = node.available.get(key, 0.0) + qty
        self.node = node

    def unreserve(self, pg_id: str) -> None:
        """Give the resources back to a live node's pool (a dead node's are simply gone)."""
        node, self.node = self.node, None
        if node is None or not node.alive:
            return
        for name, qty in self.resources.items():
            for key in (bundle_resource(name, pg_id, self.index), bundle_resource(name, pg_id)):
                left = node.total.get(key, 0.0) - qty
                if left <= 1e-9:
                    node.total.pop(key, None)
                    node.available.pop(key, None)
                else:
                    node.total[key] = left
                    node.available[key] = min(left, node.available.get(key, 0.0) - qty)
        node.release(self.resources)


class Group:
    """The manager's record of one placement group (Ray's GcsPlacementGroup)."""

    def __init__(self, pg_id: str, name: str, bundles: list, strategy: str, created_at: float):
        self.pg_id = pg_id
        self.name = name
        self.bundles: list[Bundle] = bundles
        self.strategy = strategy
        self.state = "PENDING"
        self.created_at = created_at
        self.scheduling_attempt = 0
        self.scheduling_state = "QUEUED"
        self.highest_retry_delay_ms = 0.0
        self.scheduling_latency_ms = 0.0  # the successful attempt's own duration
        self.creation_latency_ms = 0.0  # from the request to CREATED
        self.attempt_started = created_at
        self.ready_entries: list = []  # ObjectEntries that pg.ready() handed out, not yet stored
        self.failed_version = -1  # the manager's state version at this group's last failed attempt
        self.recovering_since: float | None = None
        self.queued_at_attempts = 0  # the manager's attempt count when this group was queued
        self.consulted = -1  # the state version at which the rescheduler last saw it fail
        # Where its bundles were when it was removed: Ray's table still names them (row()).
        self.removed_from: dict[int, str] | None = None

    @property
    def label(self) -> str:
        return self.name or self.pg_id[:8]

    def unplaced(self) -> list[Bundle]:
        return [b for b in self.bundles if b.node is None]

    def placed(self) -> list[Bundle]:
        return [b for b in self.bundles if b.node is not None]

    def row(self) -> dict:
        """One entry of `placement_group_table()`, with Ray's keys."""
        return {
            "placement_group_id": self.pg_id,
            "name": self.name,
            "bundles": {b.index: dict(b.resources) for b in self.bundles},
            "bundles_to_node_id": self.removed_from
            or {b.index: b.node.node_id for b in self.bundles if b.node is not None},
            "strategy": self.strategy,
            "state": self.state,
            "stats": {
                "end_to_end_creation_latency_ms": self.creation_latency_ms,
                "scheduling_latency_ms": self.scheduling_latency_ms,
                "scheduling_attempt": self.scheduling_attempt,
                "highest_retry_delay_ms": self.highest_retry_delay_ms,
                "scheduling_state": self.scheduling_state,
            },
        }
