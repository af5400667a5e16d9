"""Lesson 2's OOM cascade (seed 004), run on miniray's memory monitor.

`cascade` is a plain Ray script: two worker nodes of 16 GB and 4 CPUs, ten tasks that use 2 GB
each, and one *hungry* task that asks for `memory=2` GB and grows to 13 GB over its 4 s. Only
the two `sim.use_memory` lines are miniray's: they say what each task's attempts hold, which on
Ray is whatever the code really allocates. `summarize` reads the run's event log.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.events import Kind

GB = 1e9
NODES = 2
NODE_GB = 16.0
CPUS = 4
NORMALS = 10
NORMAL_GB = 2.0
RUN_S = 4.0  # every task's run; the hungry one reaches its peak at the end of it


def cascade(hungry_request_gb: float = 2.0, hungry_peak_gb: float = 13.0, max_retries: int = 3) -> list:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(NODES):
        cluster.add_node(num_cpus=CPUS, memory=NODE_GB * GB)
    ray.init(address=cluster.address)
    sim.use_memory("hungry", hungry_peak_gb * GB, ramp_s=RUN_S)
    sim.use_memory("normal", NORMAL_GB * GB)

    @ray.remote(memory=hungry_request_gb * GB, max_retries=max_retries)
    def hungry():
        time.sleep(RUN_S)  # loading and joining a partition that is bigger than anyone thought
        return "hungry"

    @ray.remote(memory=NORMAL_GB * GB)
    def normal(i):
        time.sleep(RUN_S)
        return i

    return ray.get([hungry.remote()] + [normal.remote(i) for i in range(NORMALS)])


@dataclass(frozen=True)
class CascadeSummary:
    kills: int  # workers the memory monitor killed
    hungry_kills: int  # of them, attempts of the hungry task
    wasted_s: float  # task-seconds of work the kills threw away
    end_s: float  # virtual time the last task finished
    story: str  # the log lines that tell it: kills, and the hungry task's attempts


def summarize(log: list) -> CascadeSummary:
    """Read a cascade run's records (`sim.event_log()` or `sim.last_runtime().log.records`)."""
    started = {r["attempt"]: r.time for r in log if r.kind == Kind.TASK_START}
    kills = [r for r in log if r.kind == Kind.MEMORY_KILL]
    keep = (Kind.MEMORY_KILL, Kind.TASK_FAIL)
    lines = [
        r.line()
        for r in log
        if r.kind in keep or (r.kind in (Kind.TASK_START, Kind.TASK_FINISH) and r["task"] == "hungry")
    ]
    finishes = [r.time for r in log if r.kind == Kind.TASK_FINISH]
    return CascadeSummary(
        kills=len(kills),
        hungry_kills=sum(1 for r in kills if r["victim"].startswith("hungry#")),
        wasted_s=round(sum(r.time - started[r["victim"]] for r in kills), 6),
        end_s=max(finishes, default=0.0),
        story="\n".join(lines),
    )


def run_cascade(**options: float) -> tuple[sim.Run, CascadeSummary]:
    """`cascade(**options)` on a fresh simulated cluster, and what its log says."""
    run = sim.run(lambda: cascade(**options), seed=0)  # type: ignore[arg-type]
    rt = sim.last_runtime()
    assert rt is not None
    return run, summarize(rt.log.records)
