"""Lesson 12's workload, failed one boundary at a time on miniray.

The workload: a three-stage feature pipeline (load 20 s, clean 40 s, featurize 60 s, each
producing a 1 GB block) feeding a trainer actor that trains 20 steps of 10 s and checkpoints
every 5 steps. Each function below runs it (or the part that matters) on a fresh cluster with
one fault, and returns a RowRun: what Ray did about it, what the driver saw, and how many
virtual seconds the fault cost against the same run without it.

Each run replaces whatever miniray cluster is active (miniray has one at a time) and shuts its
own down. Ray semantics come from miniray. Two rows use course models instead, because miniray has
neither: the corrupt checkpoint (faultlines/models/checkpoints.py) and the replacement node
that joins after a delay (faultlines/models/autoscaler.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from ..models.autoscaler import DelayedReplacement
from ..models.checkpoints import CheckpointStore
from . import spill

GB = 10**9
STAGES = (("load", 20.0), ("clean", 40.0), ("featurize", 60.0))
STEP_S, STEPS, EVERY = 10.0, 20, 5
DEATH_AT = 125.0  # during training step 13: the last checkpoint is step 10


@dataclass
class RowRun:
    row: str
    fault: str
    ray_does: str  # retry, reconstruction, restart, nothing
    outcome: str  # what the driver saw
    lost_s: float  # virtual seconds the fault cost against the clean run
    correct: bool  # did the job end with the right answer?
    detail: str = ""
    log: list[str] = field(default_factory=list)


def _cluster(**pools: dict) -> Cluster:
    """A head node for the driver (no CPUs for tasks) plus the named worker nodes."""
    if ray.is_initialized():
        ray.shutdown()
    sim.set_seed(0)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    ray.init(address=cluster.address)
    for args in pools.values():
        cluster.add_node(**args)
    return cluster


def _close(cluster: Cluster) -> None:
    ray.shutdown()
    cluster.shutdown()


KEEP = (
    Kind.FAULT,
    Kind.WORKER_DIED,
    Kind.NODE_DIED,
    Kind.TASK_FAIL,
    Kind.TASK_ERROR,
    Kind.TASK_RECONSTRUCT,
    Kind.ACTOR_STATE,
)


def _faults() -> list[str]:
    """The run's log lines that tell the failure story (node additions at time 0 left out)."""
    reading = Reading(sim.event_log())
    added_later = [r for r in reading.of(Kind.NODE_ADD) if r.time > 0]
    out = []
    for r in sorted(reading.of(*KEEP) + added_later, key=lambda r: r.index):
        shown = {k: (str(v).split()[0] if k == "fault" else v) for k, v in r.fields.items() if k != "id"}
        fields = " ".join(f"{k}={v}" for k, v in shown.items() if len(str(v)) < 40)
        out.append(f"{r.time:7.1f} s  {r.kind:<17} {fields}")
    return out


# -- 1. a task's worker dies --------------------------------------------------------------------
def task_failure(kill_at: float | None = 25.0) -> tuple[float, list[str]]:
    cluster = _cluster(w1={"num_cpus": 2, "resources": {"pool": 2}})
    try:

        @ray.remote(resources={"pool": 1})  # max_retries: Ray's default, 3
        def featurize(i):
            time.sleep(60)
            return i * 2

        ref = featurize.remote(21)
        if kill_at is not None:
            sim.kill_worker(cluster.worker_nodes[0], at=kill_at)
        assert ray.get(ref) == 42
        return sim.now(), _faults()
    finally:
        _close(cluster)


def row_task_failure() -> RowRun:
    clean, _ = task_failure(None)
    done, log = task_failure()
    return RowRun(
        "task failure",
        "the worker running featurize dies 25 s in",
        "retry (max_retries=3 by default)",
        "result returned",
        done - clean,
        True,
        f"finished at {done:g} s instead of {clean:g} s: the lost attempt's 25 s, then a 1 s retry delay",
        log,
    )


# -- 2 and 6. the trainer actor dies; its checkpoint may read back corrupt ---------------------------
def train(
    max_restarts: int = 2, kill_at: float | None = DEATH_AT, corrupt: int | None = None, verify: bool = True
) -> dict:
    cluster = _cluster(w1={"num_cpus": 2, "resources": {"pool": 2}})
    store = CheckpointStore.create("trainer")
    try:

        @ray.remote(resources={"pool": 1}, max_restarts=max_restarts, max_task_retries=-1)
        class Trainer:
            def __init__(self, store_name, verify):
                state = CheckpointStore.named(store_name).load_latest(verify=verify)
                self.store_name = store_name
                self.step = state["step"] if state else 0
                self.weights = state["weights"] if state else 0

            def train_step(self):
                time.sleep(STEP_S)
                self.step += 1
                self.weights += self.step  # the "model": the sum of the steps it has trained on
                if self.step % EVERY == 0:
                    CheckpointStore.named(self.store_name).save(
                        self.step, {"step": self.step, "weights": self.weights}
                    )
                return self.step, self.weights

        trainer = Trainer.remote("trainer", verify)  # type: ignore[attr-defined]
        if kill_at is not None:
            sim.kill_actor(trainer, at=kill_at)
        step, weights, calls, error = 0, 0, 0, None
        try:
            while step < STEPS:
                step, weights = ray.get(trainer.train_step.remote())
                calls += 1
                if corrupt is not None and step == corrupt + 2:
                    store.corrupt(corrupt)  # bit rot after the save, before anyone reads it
        except ray.exceptions.RayActorError as e:
            error = type(e).__name__
        return {
            "end": sim.now(),
            "step": step,
            "weights": weights,
            "calls": calls,
            "error": error,
            "reads": [(r.step, r.why) for r in store.reads],
            "log": _faults(),
        }
    finally:
        _close(cluster)


EXPECTED_WEIGHTS = STEPS * (STEPS + 1) // 2


def row_actor_death(max_restarts: int = 2) -> RowRun:
    clean = train(kill_at=None)
    run = train(max_restarts=max_restarts)
    if run["error"]:
        return RowRun(
            "actor death",
            f"the trainer's process dies at {DEATH_AT:g} s, max_restarts={max_restarts}",
            "nothing: max_restarts=0 is Ray's default",
            run["error"],
            float("inf"),
            False,
            f"the job fails at step {run['step']}; nothing was restarted",
            run["log"],
        )
    return RowRun(
        "actor death",
        f"the trainer's process dies at {DEATH_AT:g} s (step 13), max_restarts={max_restarts}",
        "restart: __init__ runs again, the in-flight call is retried (max_task_retries=-1)",
        "result returned",
        run["end"] - clean["end"],
        run["weights"] == EXPECTED_WEIGHTS,
        f"restored step {run['reads'][-1][0]} from the checkpoint; finished at {run['end']:g} s "
        f"instead of {clean['end']:g} s",
        run["log"],
    )


def row_corrupt_checkpoint(verify: bool = True) -> RowRun:
    clean = train(kill_at=None)
    run = train(corrupt=10, verify=verify)
    reads = "; ".join(f"step {s}: {why}" for s, why in run["reads"])
    correct = run["weights"] == EXPECTED_WEIGHTS
    return RowRun(
        "corrupt checkpoint",
        f"step 10's checkpoint reads back damaged; the trainer dies at {DEATH_AT:g} s (course model)",
        "restart, then whatever the checkpoint says"
        + (" (checksum verified)" if verify else " (unverified)"),
        "result returned"
        if correct
        else f"wrong weights {run['weights']} (expected {EXPECTED_WEIGHTS}), no error",
        run["end"] - clean["end"],
        correct,
        f"reads: {reads}",
        run["log"],
    )


# -- 3. the node holding the pipeline's blocks dies ----------------------------------------------------
def pipeline(kill: bool = True) -> tuple[float, float, list[str]]:
    cluster = _cluster(
        w1={"num_cpus": 2, "resources": {"pool": 2}}, w2={"num_cpus": 2, "resources": {"pool": 2}}
    )
    try:
        w1 = cluster.worker_nodes[0]
        here = NodeAffinitySchedulingStrategy(w1.node_id, soft=True)

        @ray.remote(resources={"pool": 1})
        def stage(seconds, upstream=None):
            time.sleep(seconds)
            return sim.Blob(GB, "block")

        @ray.remote(resources={"pool": 1})
        def train_on(block):
            return block.nbytes

        ref = None
        for name, seconds in STAGES:
            ref = stage.options(name=name, scheduling_strategy=here).remote(seconds, ref)
        ray.wait([ref], fetch_local=False)  # wait without pulling a copy to the driver's node
        ready = sim.now()
        if kill:
            cluster.remove_node(w1)
        assert ray.get(train_on.remote(ref)) == GB
        return ready, sim.now(), _faults()
    finally:
        _close(cluster)


def row_node_loss() -> RowRun:
    ready, clean, _ = pipeline(kill=False)
    _, done, log = pipeline(kill=True)
    return RowRun(
        "node loss",
        f"the node holding every stage's 1 GB block dies at {ready:g} s, when featurize is done",
        "lineage reconstruction: featurize, clean and load run again on the other node",
        "result returned",
        done - clean,
        True,
        f"the consumer got its block at {done:g} s instead of {clean:g} s",
        log,
    )


# -- 4. the store spills ---------------------------------------------------------------------------------
def row_spill() -> RowRun:
    seed = spill.SpillInputs()
    run = spill.measure(seed)
    return RowRun(
        "object spill",
        f"{seed.live_gb:g} GB live in a {seed.store_gb:g} GB store, one more {seed.extra_gb:g} GB block, "
        f"{seed.readers} readers",
        "nothing fails: the oldest block goes to disk",
        "result returned, slowly",
        run.disk_seconds,
        True,
        f"{run.spilled_gb:g} GB spilled; {run.disk_seconds:g} s of reads from one disk",
    )


# -- 5. the owner of an object dies ----------------------------------------------------------------------
def row_dead_owner() -> RowRun:
    cluster = _cluster(
        w1={"num_cpus": 2, "resources": {"pool": 2}}, w2={"num_cpus": 2, "resources": {"pool": 2}}
    )
    try:
        w1 = cluster.worker_nodes[0]

        @ray.remote(resources={"pool": 1})
        def put_inside():
            return [ray.put(sim.Blob(GB, "features"))]  # this task's worker owns the block

        [inner] = ray.get(
            put_inside.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(w1.node_id, soft=False)
            ).remote()
        )
        cluster.remove_node(w1)
        try:
            ray.get(inner)
            outcome = "result returned"
        except ray.exceptions.RayError as e:
            outcome = type(e).__name__
        return RowRun(
            "dead owner",
            "a task ray.put a block and returned its ref; the task's node dies",
            "nothing: the lineage died with its owner",
            outcome,
            float("inf"),
            False,
            "no retry or reconstruction can rebuild it; the job must recreate it itself",
            _faults(),
        )
    finally:
        _close(cluster)


# -- 7. a node is lost and its replacement takes a while ------------------------------------------------
def gpu_job(delay_s: float = 300.0, kill_at: float | None = 30.0) -> tuple[float, list[str]]:
    cluster = _cluster()
    scaler = DelayedReplacement(cluster, delay_s)
    args: dict[str, Any] = {"num_cpus": 1, "resources": {"gpu": 1}}
    scaler.remember(cluster.add_node(**args), **args)
    try:

        @ray.remote(resources={"gpu": 1})
        def train_gpu():
            time.sleep(60)
            return "trained"

        ref = train_gpu.remote()
        if kill_at is not None:
            sim.kill_node(cluster.worker_nodes[0], at=kill_at)
        assert ray.get(ref) == "trained"
        return sim.now(), _faults()
    finally:
        _close(cluster)


def row_autoscaler_delay(delay_s: float = 300.0) -> RowRun:
    clean, _ = gpu_job(delay_s, None)
    done, log = gpu_job(delay_s)
    return RowRun(
        "autoscaler delay",
        f"the only GPU node dies 30 s into a 60 s task; a replacement joins {delay_s:g} s later (course model)",
        "retry, but the retry waits: no node has a GPU until the replacement joins",
        "result returned, late",
        done - clean,
        True,
        f"finished at {done:g} s instead of {clean:g} s",
        log,
    )


def all_rows(autoscaler_delay_s: float = 300.0) -> list[RowRun]:
    return [
        row_task_failure(),
        row_actor_death(),
        row_node_loss(),
        row_spill(),
        row_dead_owner(),
        row_corrupt_checkpoint(verify=True),
        row_autoscaler_delay(autoscaler_delay_s),
    ]
