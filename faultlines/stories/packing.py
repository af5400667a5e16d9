"""Bin packing on a miniray cluster (lesson 8): where small tasks land decides whether a big one fits.

Five worker nodes of 4 CPUs each. `count` one-CPU tasks that run for a long time are placed
either by miniray's default policy (the submitter, a head with no CPUs, is never under half
busy, so each task goes to the least-utilised node: the tasks spread out) or packed by hand
with `NodeAffinitySchedulingStrategy` (fill N1, then N2, ...). Then one task asks for `big_cpus`
CPUs. Same utilisation, different layout: spread leaves the free CPUs in crumbs too small for
the big task, so it queues while the cluster reports spare capacity.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

NODES = 5
CPUS_PER_NODE = 4
STRATEGIES = ("default", "pack")


@dataclass(frozen=True)
class Layout:
    strategy: str
    small_tasks: int
    big_cpus: int
    used: tuple[float, ...]  # CPUs in use per worker node, N1 first (the big task not counted)
    big_started: bool

    @property
    def total(self) -> int:
        return NODES * CPUS_PER_NODE

    @property
    def utilisation(self) -> float:
        return sum(self.used) / self.total

    @property
    def free(self) -> tuple[float, ...]:
        return tuple(CPUS_PER_NODE - u for u in self.used)

    @property
    def largest_free(self) -> float:
        return max(self.free)


def layout(small_tasks: int, strategy: str = "default", big_cpus: int = 3) -> Layout:
    """Place the small tasks, then submit the big one, and report after one virtual second."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if not 0 <= small_tasks <= NODES * CPUS_PER_NODE:
        raise ValueError(f"small_tasks must be between 0 and {NODES * CPUS_PER_NODE}, got {small_tasks!r}")
    if not 1 <= big_cpus <= CPUS_PER_NODE:
        raise ValueError(
            f"big_cpus must be between 1 and {CPUS_PER_NODE} (one node's CPUs), got {big_cpus!r}"
        )
    miniray.shutdown()  # a lab may still have its own cluster up: this run starts afresh
    sim.set_seed(0)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=cluster.address)
    try:
        nodes = [cluster.add_node(num_cpus=CPUS_PER_NODE) for _ in range(NODES)]

        @miniray.remote(num_cpus=1)
        def small() -> None:
            time.sleep(1000)

        @miniray.remote(num_cpus=big_cpus)
        def big() -> str:
            return "started"

        for i in range(small_tasks):
            if strategy == "pack":
                node = nodes[i // CPUS_PER_NODE]
                small.options(
                    scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False)
                ).remote()
            else:
                small.remote()
        sim.sleep(0.5)
        used = tuple(CPUS_PER_NODE - n.available.get("CPU", 0.0) for n in nodes)
        ready, _ = miniray.wait([big.remote()], timeout=0.5)
        return Layout(strategy, small_tasks, big_cpus, used, bool(ready))
    finally:
        miniray.shutdown()
        cluster.shutdown()


def sweep(strategy: str, big_cpus: int = 3) -> list[Layout]:
    """`layout` for every number of small tasks from 0 to a full cluster."""
    return [layout(k, strategy, big_cpus) for k in range(NODES * CPUS_PER_NODE + 1)]


def first_refusal(layouts: list[Layout]) -> Layout | None:
    """The least-utilised layout in which the big task could not start."""
    return next((x for x in layouts if not x.big_started), None)
