"""`ray._raylet.GcsClient`'s drain call and `ray._private.state.state.get_draining_nodes()`: the
private API Ray 2.60's own tests and `ray drain-node` drain a node with, and the only way a Ray
program can learn that a node is draining (miniray/drain.py says what a drain does)."""

from __future__ import annotations

import time

from . import context


class GcsClient:
    """A client of the cluster's GCS (`ray._raylet.GcsClient(address=...)`): the drain call only."""

    def __init__(self, address: str | None = None, **_options: object):
        self.address = address

    def drain_node(
        self, node_id: str, reason: int, reason_message: str, deadline_timestamp_ms: int
    ) -> tuple[bool, str]:
        """Ask the GCS to drain the node with hex id `node_id` (reason: Ray's DrainNodeReason
        number; deadline: a `time.time()` timestamp in ms, 0 for none): (is_accepted, why not)."""
        rt = context.require("draining a node")
        node = rt.node_by_id(node_id)
        if node is None:
            raise ValueError(f"no node has the id {node_id!r} (ray.nodes() lists the ids)")
        deadline_ms = int(deadline_timestamp_ms)
        if deadline_ms:
            # The caller's clock: a body's time.time() is the virtual one, the driver's this machine's.
            # The table keeps the deadline on the virtual clock, which every body reads; from the
            # driver, to the tenth of a second, so the real time spent between its clock read and
            # this call cannot change the run.
            left = deadline_ms / 1000 - time.time()
            deadline_ms = rt.drains.wall_ms(left if rt._current else round(left, 1))
        return context.interact(
            rt, lambda: rt.drains.drain(node, reason, reason_message, deadline_ms), "drain_node"
        )


class GlobalState:
    """`ray._private.state.state`: what the GCS's tables say, the draining table only."""

    def get_draining_nodes(self) -> dict[str, int]:
        """Each draining node's hex id and its deadline as a `time.time()` timestamp in ms (0: no
        deadline), as Ray's GCS keeps them."""
        rt = context.require("reading the draining nodes")
        return context.interact(rt, rt.drains.table, "get_draining_nodes")


state = GlobalState()
