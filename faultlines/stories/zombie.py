"""Lesson 7's story: a paused node's attempt outlives its presumed death and writes late (a zombie).

One task owns shard 7 for a while (a lease with a 10 s ttl), computes for `work_s`, sends a
notification, and writes the shard's result. Its node pauses (a long GC pause, a saturated NIC)
for `pause_s`. The detector presumes the node dead, the task is re-run elsewhere, and when the
node wakes up the first attempt carries on as if nothing happened. Three bodies, three defences:

  "none"              write the result in place: the zombie's stale write lands last
  "exclusive_commit"  write to a private path, then claim the destination atomically: the
                      first attempt to finish wins and the other discards its output
  "fencing"           write with the lease's fencing token: the store refuses the older token

The notification is sent in every variant, and every variant sends it twice: neither defence
controls an effect outside the framework's own output.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray
from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.liveness import Services

from .detection import detector_cluster

DEFENCES = ("none", "exclusive_commit", "fencing")
# The event-log records the story shows, and the fields left out of them (ids are noise here).
LOG_KINDS = (
    Kind.TASK_START,
    Kind.TASK_FINISH,
    Kind.TASK_FAIL,
    Kind.FAULT,
    Kind.LIVENESS_PROBE_FAILED,
    Kind.LIVENESS_SUSPECT,
    Kind.LIVENESS_ALIVE,
    Kind.LIVENESS_DEAD,
    Kind.LIVENESS_ZOMBIE,
    Kind.LIVENESS_ZOMBIE_FINISHED,
    Kind.NODE_RESUMED,
    Kind.EFFECT,
)
HIDDEN_FIELDS = ("id", "worker", "task", "threshold", "target", "at", "service")


def log_lines(records: list, names: dict[str, str]) -> list[str]:
    """Readable lines for the story's records: virtual time, kind, the fields that matter.
    `names` maps node ids to node names (a fault record names its node by id)."""
    out = []
    for r in Reading(records).of(*LOG_KINDS):
        fields = " ".join(
            f"{k}={v}" for k, v in r.fields.items() if k not in HIDDEN_FIELDS and v not in ("", None)
        )
        for node_id, name in names.items():
            fields = fields.replace(node_id, f"node={name}")
        out.append(f"{r.time:5.1f}  {r.kind:<24} {fields}")
    return out


def attempt_id() -> str:
    """The running attempt's name, e.g. "write_shard#1/2" (call #1, attempt 2).

    miniray-specific: the simulator names attempts for its fault schedules. In Ray, a task reads
    its task id and attempt number from the runtime context.
    """
    attempt = sim.current_attempt()
    return attempt.key if attempt is not None else "driver"


@dataclass(frozen=True)
class ZombieRun:
    defence: str
    result: object  # what ray.get returned (the retry's answer)
    final_value: object  # what the world holds for shard 7 at the end
    notifications: int  # how many were sent
    effects: str  # Services' effect log, one line per effect
    log: str  # the event log's lines about attempts, liveness and effects
    zombie_outcome: str  # "returned" or the error class that ended the zombie


def run_story(
    defence: str = "none",
    pause_s: float = 30.0,
    pause_at: float = 2.0,
    work_s: float = 10.0,
    probe_interval_s: float = 5.0,
    threshold: int = 3,
) -> ZombieRun:
    """Run the story on a fresh two-node cluster with the failure detector on."""
    if defence not in DEFENCES:
        raise ValueError(f"unknown defence {defence!r}; choose one of {', '.join(DEFENCES)}")
    cluster = detector_cluster(probe_interval_s, threshold)
    svc = Services()
    try:
        n1 = cluster.add_node(num_cpus=1)
        cluster.add_node(num_cpus=1)

        @miniray.remote
        def write_shard() -> str:
            me = attempt_id()
            token = svc.leases.acquire("shard-7", ttl_s=10)
            if defence == "fencing":  # show the store our token before the long work
                svc.db.upsert("results", "shard-7", f"started by {me}", token=token)
            if defence == "exclusive_commit":
                svc.blobs.put(f"tmp/{me}", f"result from {me}")
            time.sleep(work_s)
            svc.db.insert("outbox", me, "shard 7 is done")  # an email: an effect in the world
            if defence == "exclusive_commit":
                return "committed" if svc.blobs.commit(f"tmp/{me}", "out/shard-7") else "discarded"
            svc.db.upsert(
                "results", "shard-7", f"result from {me}", token=token if defence == "fencing" else None
            )
            return "written"

        ref = write_shard.remote()
        sim.pause_node(n1, pause_s, at=pause_at)
        result = miniray.get(ref)
        sim.sleep(max(0.0, pause_at + pause_s + work_s - sim.now()) + 1.0)  # let the zombie finish
        if defence == "exclusive_commit":
            final = svc.blobs.files.get("out/shard-7")
        else:
            final = svc.db.rows("results").get("shard-7")
        records = sim.event_log()
        zombie = Reading(records).of(Kind.LIVENESS_ZOMBIE_FINISHED)
        return ZombieRun(
            defence=defence,
            result=result,
            final_value=final,
            notifications=len(svc.db.rows("outbox")),
            effects=svc.text(),
            log="\n".join(log_lines(records, {n.node_id: n.name for n in cluster.list_all_nodes()})),
            zombie_outcome=(zombie[0]["detail"] or zombie[0]["outcome"]) if zombie else "",
        )
    finally:
        miniray.shutdown()
        cluster.shutdown()
