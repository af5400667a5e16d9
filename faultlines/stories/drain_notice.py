"""Lesson 13's second story: a long job on a node that is drained with a deadline.

`train` runs STEPS steps of STEP_S virtual seconds on a worker node. At NOTICE_AT the cloud
announces that the node will be taken (a drain for preemption, with a deadline DEADLINE_S later),
and at the deadline it takes it (`kill_node`): the drain itself kills nothing. Two jobs:

* ``ignores the notice``: it saves a checkpoint every CHECKPOINT_EVERY steps, as a job that
  expects crashes does, and goes on until the node dies under it; Ray retries it on the other
  node from its last checkpoint.
* ``uses the notice``: before each step it reads the GCS's draining table
  (`ray._private.state.state.get_draining_nodes()`, the only place Ray 2.60 shows a drain) and,
  when its own node is there, saves a checkpoint and returns; the driver submits it again, Ray
  places it on the other node (a draining node takes no new work), and the drained node, idle,
  exits before the deadline.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.liveness import Services

STEPS = 20
STEP_S = 1.0
NOTICE_AT = 6.5  # the preemption notice arrives during the seventh step
DEADLINE_S = 10.0  # the node is taken this long after the notice
CHECKPOINT_EVERY = 10  # the job that ignores the notice still checkpoints, every ten steps
JOBS = ("ignores the notice", "uses the notice")


@dataclass
class Drained:
    job: str
    finished_at: float  # when the job's last step was done
    steps_run: int  # steps run in all, repeats included
    lost: int  # steps run twice: the work the node took with it
    attempts: int  # times Ray started the job
    node_death: str  # how the drained node ended, in the reading's words
    timeline: str


def _step(services: Services, start: int, uses_notice: bool) -> int:
    """Steps from `start` to the end; with `uses_notice`, stop and save at a drain of its node."""
    node = ray.get_runtime_context().get_node_id()
    for step in range(start, STEPS):
        if uses_notice and node in ray._private.state.state.get_draining_nodes():
            services.blobs.put("ckpt", step)  # the notice: save now, and let the node go
            return step
        time.sleep(STEP_S)
        services.db.insert("steps", f"{step}-{sim.now():g}", step)  # each step's work, as it is done
        if (step + 1) % CHECKPOINT_EVERY == 0:
            services.blobs.put("ckpt", step + 1)
    return STEPS


def preemption(job: str = "uses the notice") -> Drained:
    """Run one job through the notice and the deadline, and count what the node took with it."""
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r}; the jobs are {', '.join(JOBS)}")
    services = Services()
    uses_notice = job == "uses the notice"

    def scenario() -> None:
        from miniray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
        doomed, _spare = cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)
        cluster.connect()

        @ray.remote  # max_retries=3 by default
        def train() -> int:
            return _step(services, services.blobs.read("ckpt") or 0, uses_notice)

        sim.drain_node(doomed, deadline_s=DEADLINE_S, at=NOTICE_AT)
        sim.kill_node(doomed, at=NOTICE_AT + DEADLINE_S)  # the cloud takes the node at the deadline
        first = train.options(scheduling_strategy=_on(doomed)).remote()
        done = ray.get(first)
        while done < STEPS:  # stopped on notice: go on from its checkpoint, elsewhere
            done = ray.get(train.remote())

    run = sim.run(scenario)
    if run.error is not None:
        raise RuntimeError(f"the job failed unexpectedly (replay: {run.token()}): {run.error!r}")
    reading = Reading.of_run(run)
    steps = [e for e in services.of(service="db", op="insert")]
    done = sorted(int(e.key.split("/")[1].split("-")[0]) for e in steps)
    died = reading.of(Kind.NODE_DIED, node="node:1")
    return Drained(
        job=job,
        finished_at=max(e.time for e in steps),
        steps_run=len(done),
        lost=len(done) - len(set(done)),
        attempts=reading.count(Kind.TASK_START, task="train"),
        node_death=died[0].line() if died else "",
        timeline="\n".join(
            r.line()
            for r in reading.of(
                Kind.NODE_DRAINING, Kind.NODE_DIED, Kind.TASK_START, Kind.TASK_FAIL, Kind.TASK_FINISH
            )
        ),
    )


def _on(node):
    from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return NodeAffinitySchedulingStrategy(node_id=node.node_id, soft=True)
