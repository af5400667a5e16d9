"""Nodes, workers and resources: what the scheduler places work on."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .isolation import ProcessSpace

if TYPE_CHECKING:  # types only: these modules stand on this one
    from .actors import Actor
    from .drain import Drain
    from .execution import BodyRun
    from .tasks import TaskSpec

EPS = 1e-9

# Ray's NodeDeathInfo.Reason, as ray.nodes()' DeathReason gives it, and the GCS's words for a node
# whose health checks stopped (a crash or an abrupt removal; tests/conformance/scenarios/node_drain.py).
UNEXPECTED_TERMINATION, PREEMPTED, DRAINED_IDLE = 2, 3, 4  # ..., AUTOSCALER_DRAIN_PREEMPTED, _IDLE
HEALTH_CHECK_FAILED = "health check failed due to missing too many heartbeats"


class Worker:
    """A simulated worker process. It owns the objects it creates and dies with its node."""

    def __init__(self, worker_id: str, node: Node, pid: int, kind: str, salt: int | None = None):
        self.worker_id = worker_id
        self.node = node
        self.pid = pid
        self.kind = kind  # "driver" | "task" | "actor"
        self.alive = True
        self.body: BodyRun | None = None  # executing on it now, if any
        self.owned: list[str] = []  # ids of the objects it owns, in creation order
        self.actor: Actor | None = None
        self.task: TaskSpec | None = None  # the task whose attempt it runs
        # Its own copy of the learner's state, and its own hash salt (miniray/isolation).
        self.space = ProcessSpace(salt)

    def __repr__(self) -> str:
        return f"<Worker pid={self.pid} {self.kind} on {self.node.name}>"


class Node:
    def __init__(
        self,
        index: int,
        node_id: str,
        resources: dict[str, float],
        labels: dict[str, str],
        object_store_memory: int,
        is_head: bool,
    ):
        self.index = index
        self.name = f"node:{index}"
        self.node_id = node_id
        self.total = dict(resources)
        self.available = dict(resources)
        self.labels = dict(labels)
        self.labels.setdefault("ray.io/node-id", node_id)
        self.object_store_memory = object_store_memory
        self.is_head = is_head
        self.alive = True
        self.frozen_until = 0.0  # a paused or hung node runs nothing before this virtual time
        self.drain: Drain | None = None  # accepted drain request (miniray/drain.py): no new leases
        self.death = (0, "")  # ray.nodes()' DeathReason and DeathReasonMessage (0: alive, unspecified)
        self.workers: list[Worker] = []
        self.idle: list[Worker] = []  # task workers kept warm for reuse, as Ray's worker pool does
        self.store: dict[str, int] = {}  # object id -> bytes held in this node's object store
        self.spilled: dict[str, int] = {}  # object id -> bytes spilled to this node's local disk
        self.address = "127.0.0.1"
        self.on_kill_gcs: Callable[[], None] | None = None  # the head's GCS (miniray/head)

    def kill_gcs_server(self, check_alive: bool = True) -> None:
        """Ray's `Node.kill_gcs_server()` (what `cluster.head_node` is in Ray's cluster_utils): the
        head node's GCS process dies; the node's raylet and workers live on."""
        if self.on_kill_gcs is None:
            raise ValueError(f"{self.name} is not the head node: only the head node runs the GCS.")
        self.on_kill_gcs()

    def __repr__(self) -> str:
        return f"<Node {self.name} {self.node_id[:8]} {'alive' if self.alive else 'dead'}>"

    def fits(self, req: dict[str, float]) -> bool:
        avail = self.available
        return all(avail.get(k, 0.0) + EPS >= v for k, v in req.items() if v > 0)

    def feasible(self, req: dict[str, float]) -> bool:
        total = self.total
        return all(total.get(k, 0.0) + EPS >= v for k, v in req.items() if v > 0)

    def acquire(self, req: dict[str, float]) -> None:
        for k, v in req.items():
            self.available[k] = self.available.get(k, 0.0) - v

    def release(self, req: dict[str, float]) -> None:
        for k, v in req.items():
            self.available[k] = min(self.total.get(k, 0.0), self.available.get(k, 0.0) + v)

    def utilization(self) -> float:
        cpu = self.total.get("CPU", 0.0)
        return 1.0 if cpu <= 0 else 1.0 - self.available.get("CPU", 0.0) / cpu

    def info(self) -> dict[str, Any]:
        """One entry of `ray.nodes()`, with the keys Ray's has that a learner is likely to read."""
        return {
            "NodeID": self.node_id,
            "Alive": self.alive,
            "NodeManagerAddress": self.address,
            "NodeName": self.address,
            "Resources": dict(self.total) if self.alive else {},
            "Labels": dict(self.labels),
            "ObjectStoreMemory": self.object_store_memory,
            "IsHead": self.is_head,
            "DeathReason": self.death[0],
            "DeathReasonMessage": self.death[1],
            "alive": self.alive,
        }


def label_matches(labels: dict[str, str], selector: dict[str, str] | None) -> bool:
    """Ray's label selector syntax: "v", "!v", "in(a,b)", "!in(a,b)"."""
    if not selector:
        return True
    for key, want in selector.items():
        have = labels.get(key)
        negate = want.startswith("!")
        body = want[1:] if negate else want
        if body.startswith("in(") and body.endswith(")"):
            ok = have in [v.strip() for v in body[3:-1].split(",")]
        else:
            ok = have == body
        if ok == negate:
            return False
    return True
