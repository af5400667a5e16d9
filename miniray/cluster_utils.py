"""`miniray.cluster_utils.Cluster`: a multi-node simulated cluster, shaped like Ray's test helper."""

from __future__ import annotations

from . import api, context
from .events import Kind
from .head import remove_connected_node_error
from .session import SESSION


class Cluster:
    def __init__(
        self,
        initialize_head: bool = False,
        connect: bool = False,
        head_node_args: dict | None = None,
        shutdown_at_exit: bool = True,
    ):
        self.rt = api.new_runtime((head_node_args or {}).get("_system_config"))
        self.address = SESSION.register_cluster(self.rt)
        self.head_node = None
        self.worker_nodes: list = []
        if initialize_head:
            args = {k: v for k, v in (head_node_args or {}).items() if k != "_system_config"}
            self.head_node = self._add(is_head=True, **args)
        if connect:
            self.connect()

    def connect(self, namespace: str | None = None) -> None:
        context.activate(self.rt)

    def _add(
        self,
        num_cpus: float = 1,
        num_gpus: float = 0,
        resources: dict | None = None,
        labels: dict | None = None,
        object_store_memory: int | None = None,
        is_head: bool = False,
        memory: float | None = None,
        **_ignored,
    ):
        if memory is not None:  # Ray's `memory` resource; the memory monitor's capacity (miniray/memory)
            resources = {**(resources or {}), "memory": float(memory)}
        return self.rt.add_node(
            num_cpus=num_cpus,
            num_gpus=num_gpus,
            resources=resources,
            labels=labels,
            object_store_memory=object_store_memory or context.DEFAULT_STORE_BYTES,
            is_head=is_head,
        )

    def add_node(self, wait: bool = True, **node_args):
        """Add a node; `num_cpus`, `resources`, `labels`, `object_store_memory` as in Ray."""
        if self.head_node is None:
            self.head_node = self._add(is_head=True, **node_args)
            return self.head_node
        node = self._add(**node_args)
        self.worker_nodes.append(node)
        return node

    def remove_node(self, node, allow_graceful: bool = True) -> None:
        """The node dies now: its workers, actors and stored objects go with it.

        The head node, while this process's driver is connected to it, is refused as Ray's
        cluster_utils refuses it: the driver is shut down first, then ValueError."""
        if node.is_head and context.current() is self.rt:
            api.shutdown()
            raise remove_connected_node_error()
        self.rt.emit(Kind.CLUSTER_REMOVE_NODE, node=node.name, graceful=allow_graceful)
        self.rt.kill_node(node, cause="removed")
        if node in self.worker_nodes:
            self.worker_nodes.remove(node)

    def list_all_nodes(self) -> list:
        return ([self.head_node] if self.head_node is not None else []) + list(self.worker_nodes)

    def wait_for_nodes(self, timeout: float = 30) -> None:
        return None

    def shutdown(self) -> None:
        if context.current() is self.rt:
            api.shutdown()
        self.rt.alive = False
        SESSION.clusters.pop(self.address, None)
