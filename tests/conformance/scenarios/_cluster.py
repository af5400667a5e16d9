"""A small multi-node cluster set up the way Ray's own reconstruction tests do it.

The head node has no CPUs, so every task lands on a worker node chosen by a
custom resource ("node1": 1 ...). Nodes are removed with allow_graceful=False,
which kills their processes: their object copies and workers are gone.
"""

import time

# Fast failure detection, from Ray's test_reconstruction.py: a dead node is
# noticed after ~1 s of missed health checks, and a missing object is looked
# for again after 200 ms.
FAST_FAILURE_DETECTION = {
    "health_check_failure_threshold": 10,
    "health_check_period_ms": 100,
    "health_check_initial_delay_ms": 0,
    "object_timeout_milliseconds": 200,
}

# Bigger than Ray's 100 KiB inline limit, so results live in a node's object
# store (and die with it) instead of being copied into the owner's memory.
BIG = 1 << 20
NODE_STORE_BYTES = 10**8


class SmallCluster:
    def __init__(self, ray, cluster_utils):
        self.ray = ray
        self.cluster = cluster_utils.Cluster(
            initialize_head=True,
            head_node_args={"num_cpus": 0, "_system_config": FAST_FAILURE_DETECTION},
        )
        ray.init(address=self.cluster.address)
        self.nodes = {}

    def add(self, name, units=1):
        """Start a 1-CPU node offering ``units`` of resource ``name``."""
        self.nodes[name] = (
            self.cluster.add_node(num_cpus=1, resources={name: units}, object_store_memory=NODE_STORE_BYTES),
            units,
        )

    def kill(self, name):
        """Remove node ``name`` ungracefully and start a fresh node offering the same resource."""
        node, units = self.nodes.pop(name)
        self.cluster.remove_node(node, allow_graceful=False)
        self.add(name, units)

    def close(self):
        self.ray.shutdown()
        self.cluster.shutdown()


def on(name):
    """Options pinning a task or actor to the node offering resource ``name``."""
    return {"resources": {name: 1}}


# Ray's `autoscaler_pb2.DrainNodeReason` values (what `DrainNodeReason.Value(name)` returns).
IDLE_TERMINATION = 1  # DRAIN_NODE_REASON_IDLE_TERMINATION
PREEMPTION = 2  # DRAIN_NODE_REASON_PREEMPTION


def drain(ray, address, node_id, reason=PREEMPTION, message="", deadline_s=None):
    """Ask the GCS to drain a node, as Ray's own tests and the hidden `ray drain-node` do: Ray 2.60
    has no public drain API, only `ray._raylet.GcsClient(address).drain_node(...)`. The deadline is
    a wall-clock timestamp in ms (0: none), read on the backend's clock. Returns
    ((is_accepted, rejection_message), deadline_ms)."""
    deadline_ms = 0 if deadline_s is None else int(time.time() * 1000) + int(deadline_s * 1000)
    reply = ray._raylet.GcsClient(address=address).drain_node(node_id, reason, message, deadline_ms)
    return (bool(reply[0]), str(reply[1])), deadline_ms
