"""Lesson 8's head-node loss: a job whose head node's GCS dies halfway, run on miniray.

`gcs_loss_job` is a Ray script on `cluster_utils.Cluster` (only its clock, `sim.now()`, is
miniray's): two worker nodes of 2 CPUs, a tally actor, a wave of four tasks; the GCS dies one
second in. It notes what still works and what waits, then blocks on a new actor, as a job that
needs one would, until the driver gives up on the GCS. The conformance suite's
`head_node_loss` scenario recorded the same checks on real Ray 2.60.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster

WORKERS = 2
CPUS = 2
TASK_S = 3.0
LONG_S = 10.0  # the second wave: long enough to keep every worker busy while the job checks
PATIENCE_S = 5.0  # how long the job waits for each thing it checks
KILL_AT_S = 1.0


def gcs_loss_job(notes: list[str], reconnect_timeout_s: float = 60.0) -> None:
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "_system_config": {"gcs_rpc_server_reconnect_timeout_s": reconnect_timeout_s},
        },
    )
    for _ in range(WORKERS):
        cluster.add_node(num_cpus=CPUS)
    ray.init(address=cluster.address)

    def note(what: str) -> None:
        notes.append(f"t = {sim.now():4.1f} s  {what}")

    @ray.remote
    def step(i, seconds=TASK_S):
        time.sleep(seconds)
        return i

    @ray.remote(num_cpus=0)
    class Tally:
        def __init__(self):
            self.total = 0

        def add(self, n):
            self.total += n
            return self.total

    def outcome(ref, patience: float = PATIENCE_S) -> str:
        try:
            return f"-> {ray.get(ref, timeout=patience)!r}"
        except ray.exceptions.GetTimeoutError:
            return f"-> still waiting after {patience:g} s (GetTimeoutError)"

    tally = Tally.remote()  # type: ignore[attr-defined]  # @ray.remote made it an actor class
    wave = [step.remote(i) for i in range(WORKERS * CPUS)]
    time.sleep(KILL_AT_S)
    head = cluster.head_node
    assert head is not None  # initialize_head=True
    head.kill_gcs_server()
    note("the head node's GCS dies")
    note(f"the running wave {outcome(wave)}")
    note(f"a call to the live tally actor {outcome(tally.add.remote(sum(ray.get(wave))))}")
    second = [step.remote(i, LONG_S) for i in range(WORKERS * CPUS)]  # on the idle workers
    note(f"a second wave of {len(second)} long tasks starts on the idle workers")
    note(f"one task more, which needs a new worker process {outcome(step.remote(99))}")
    note(f"the second wave {outcome(second, LONG_S)}")
    writer = Tally.remote()  # type: ignore[attr-defined]
    note(f"a new actor (a checkpoint writer) {outcome(writer.add.remote(0))}")
    note("the job now needs that actor, and waits for it")
    ray.get(writer.add.remote(0))
    note("never reached: the actor was created")


@dataclass(frozen=True)
class GcsLoss:
    notes: str  # what the job saw, a line per check
    exit_message: str  # the SystemExit text (Ray: the line the driver logs before it exits)
    exit_at_s: float  # virtual time the driver gave up
    died_at_s: float  # virtual time the GCS died
    log: str  # the event log


def run_gcs_loss(reconnect_timeout_s: float = 60.0) -> GcsLoss:
    """Run the job on a fresh simulated cluster; its driver ends with SystemExit, caught here."""
    notes: list[str] = []
    message = ""
    try:
        sim.run(lambda: gcs_loss_job(notes, reconnect_timeout_s), seed=0)
    except SystemExit as exit_:
        message = str(exit_.code)
    rt = sim.last_runtime()
    assert rt is not None
    died = rt.gcs.died_at if rt.gcs.died_at is not None else float("nan")
    return GcsLoss("\n".join(notes), message, rt.kernel.now, died, rt.log.text())
