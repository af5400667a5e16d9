"""ObjectLostError while reconstructing: two objects Ray cannot rebuild after their copy is lost.

1. A task output whose task was created with max_retries=0: reconstruction is disabled.
2. An object made by ray.put: it has no task lineage to re-run.
"""

import time

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

GB = 10**9
cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
ray.init(address=cluster.address)
worker = cluster.add_node(num_cpus=2)
cluster.add_node(num_cpus=2)  # survives


@ray.remote(max_retries=0)
def produce():
    time.sleep(5)
    return sim.Blob(GB, "shard")  # 1 GB: lives in the object store of the node that made it


@ray.remote
def size(block):
    return block.nbytes


on_worker = NodeAffinitySchedulingStrategy(worker.node_id, soft=True)
shard = produce.options(scheduling_strategy=on_worker).remote()
ray.wait([shard], fetch_local=False)  # wait without pulling a copy to the driver's node
cluster.remove_node(worker)  # the only copy goes with the node


def reason(error: Exception) -> str:
    """The bracketed error code in Ray's message, e.g. OBJECT_UNRECONSTRUCTABLE_PUT."""
    return str(error).split("[")[1].split("]")[0]


try:
    ray.get(size.remote(shard))
except ray.exceptions.ObjectLostError as e:
    print(f"task output, max_retries=0: {type(e).__name__} [{reason(e)}]")

put_ref = ray.put(sim.Blob(GB, "input"))
sim.lose_object(put_ref)  # every copy of it is lost
try:
    ray.get(size.remote(put_ref))
except ray.exceptions.ObjectLostError as e:
    print(f"ray.put object: {type(e).__name__} [{reason(e)}]")
ray.shutdown()
cluster.shutdown()
