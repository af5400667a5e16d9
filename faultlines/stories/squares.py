"""Lesson 1's story: six one-second tasks on two 2-CPU worker nodes, one of which may die."""

from __future__ import annotations

import time

import miniray as ray
from miniray.cluster_utils import Cluster


def squares(n: int = 6, max_retries: int = 3) -> list[int]:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    cluster.add_node(num_cpus=2)  # node:1
    cluster.add_node(num_cpus=2)  # node:2
    ray.init(address=cluster.address)

    @ray.remote(max_retries=max_retries)  # 3 is Ray's default for tasks
    def square(x):
        time.sleep(1)  # one second of virtual time
        return x * x

    refs = [square.remote(i) for i in range(n)]
    return ray.get(refs)
