"""Draining a node, as Ray 2.60's GCS `DrainNode` call does it (behind the hidden `ray drain-node`,
the autoscaler's idle termination and a cloud's preemption notice; tests/conformance/scenarios/
node_drain.py records it).

A drained node takes no new leases: no task, actor or new work of any kind is placed there (a hard
node affinity to it waits, a soft one goes elsewhere). What already runs there goes on, and the
deadline is only a note: the drain kills nothing when it passes ("it's the caller's
responsibility", ray/scripts/scripts.py), the caller (a cloud, `Cluster.remove_node`) does. Once
the node is idle (nothing leased, nothing in its object store) it exits by itself, with the death
reason Ray gives (`ray.nodes()`' DeathReason: AUTOSCALER_DRAIN_PREEMPTED or _IDLE). A drain for
idle termination is refused while the node is busy. The only way a Ray 2.60 program learns of a
drain is the GCS's draining table, `ray._private.state.state.get_draining_nodes()` (miniray's
answers the same): `ray.nodes()` shows a draining node as an active one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cluster import DRAINED_IDLE, EPS, PREEMPTED, Node
from .events import Kind
from .kernel import EPOCH

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .runtime import Runtime

# Ray's `autoscaler_pb2.DrainNodeReason`, by name and by the number `GcsClient.drain_node` takes.
PREEMPTION = "DRAIN_NODE_REASON_PREEMPTION"
IDLE_TERMINATION = "DRAIN_NODE_REASON_IDLE_TERMINATION"
REASONS = {IDLE_TERMINATION: 1, PREEMPTION: 2}
# Ray's `NodeDeathInfo.Reason` for a node a drain took down, as `ray.nodes()` gives it.
DRAINED_DEATH = {PREEMPTION: PREEMPTED, IDLE_TERMINATION: DRAINED_IDLE}
NOT_IDLE = "The node to be idle terminated is no longer idle."  # the GCS's rejection, word for word


@dataclass(frozen=True)
class Drain:
    reason: str  # a name of REASONS
    message: str  # the caller's words: the DeathReasonMessage once the node is gone
    deadline_ms: int  # a wall-clock timestamp in ms, as the GCS keeps it; 0: no deadline


def reason_name(reason: str | int) -> str:
    """A reason given by name or by Ray's number, as its name; ValueError for any other."""
    for name, number in REASONS.items():
        if reason in (name, number) and not isinstance(reason, bool):
            return name
    raise ValueError(
        f"a drain's reason is one of {sorted(REASONS)} (or {sorted(REASONS.values())}), got {reason!r}"
    )


class Drains:
    """The cluster's draining nodes: what the GCS's draining table holds."""

    def __init__(self, rt: Runtime):
        self.rt = rt
        # node id -> node, in the order they were drained. The scheduler and the placement groups
        # skip a node whose `drain` is set: no new leases there.
        self.draining: dict[str, Node] = {}

    def wall_ms(self, seconds_from_now: float) -> int:
        """A deadline `seconds_from_now` virtual seconds away, as a wall-clock timestamp in ms
        (the driver's `time.time()` reads virtual time, from EPOCH)."""
        return int((EPOCH + self.rt.now() + seconds_from_now) * 1000)

    def drain(
        self, node: Node, reason: str | int, message: str = "", deadline_ms: int = 0
    ) -> tuple[bool, str]:
        """The GCS's answer to a drain request: (is_accepted, rejection message)."""
        name = reason_name(reason)
        if node.is_head:
            raise ValueError(
                "miniray cannot drain the head node: it runs the driver and cannot exit. "
                "Drain a worker node (Cluster.add_node)."
            )
        if not node.alive:
            return True, ""  # nothing left to drain
        if name == IDLE_TERMINATION and not self.idle(node):
            self.rt.emit(Kind.NODE_DRAIN_REJECTED, node=node.name, reason=name, message=NOT_IDLE)
            return False, NOT_IDLE
        node.drain = Drain(name, message, int(deadline_ms))
        self.draining[node.node_id] = node
        deadline = {"deadline": round(deadline_ms / 1000 - EPOCH, 6)} if deadline_ms else {}
        self.rt.emit(Kind.NODE_DRAINING, node=node.name, reason=name, **deadline)
        self.rt.request_dispatch()  # an idle node exits once the reply is out
        return True, ""

    def table(self) -> dict[str, int]:
        """`get_draining_nodes()`: each draining node's hex id and its deadline in ms (0: none)."""
        return {node_id: node.drain.deadline_ms for node_id, node in self.draining.items() if node.drain}

    def idle(self, node: Node) -> bool:
        """Nothing leased there (no task, no actor, no bundle: every resource free) and nothing in its
        object store, which Ray counts as use too."""
        if node.store or any(w.alive and (w.task is not None or w.actor is not None) for w in node.workers):
            return False
        return all(node.available.get(k, 0.0) + EPS >= v for k, v in node.total.items())

    def settle(self) -> None:
        """Each draining node that is idle now exits (the runtime asks once per scheduling pass)."""
        for node_id, node in list(self.draining.items()):
            if not node.alive:
                del self.draining[node_id]
            elif self.idle(node):
                del self.draining[node_id]
                self.rt.kill_node(node, cause="drained")

    def died(self, node: Node) -> None:
        """A node that died for any reason leaves the draining table."""
        self.draining.pop(node.node_id, None)
