"""The event catalogue: every kind of record the runtime's log holds, with its fields, in one place.

Emitters name a kind from `Kind`; the log (`EventLog(catalogue=CATALOGUE)`) refuses a kind or a
field that is not listed here, so the emitters, the log text, `Attribution`, the metrics sampler
and the timeline (which dispatches on `Kind`) cannot drift apart. A field's position in `fields`
is only documentation: a record keeps the order its emitter wrote, which is what the log prints.
Kinds are `str`s ("task.start"), so code that compares `record.kind` with a string keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    NODE_ADD = "node.add"
    NODE_DIED = "node.died"
    NODE_PAUSED = "node.paused"
    NODE_RESUMED = "node.resumed"
    NODE_DRAINING = "node.draining"
    NODE_DRAIN_REJECTED = "node.drain_rejected"
    CLUSTER_REMOVE_NODE = "cluster.remove_node"
    WORKER_DIED = "worker.died"
    WORKER_EXIT = "worker.exit"
    WORKER_SIGNAL = "worker.signal"
    MEMORY_KILL = "memory.kill"
    GCS_DIED = "gcs.died"
    GCS_UNREACHABLE = "gcs.unreachable"
    FAULT = "fault"
    TASK_SUBMIT = "task.submit"
    TASK_START = "task.start"
    TASK_FINISH = "task.finish"
    TASK_ERROR = "task.error"
    TASK_FAIL = "task.fail"
    TASK_RECONSTRUCT = "task.reconstruct"
    TASK_CANCEL = "task.cancel"
    ACTOR_CREATE = "actor.create"
    ACTOR_START = "actor.start"
    ACTOR_STATE = "actor.state"
    ACTOR_KILL = "actor.kill"
    ACTOR_STALLED = "actor.stalled"
    OBJECT_FREE = "object.free"
    OBJECT_SPILL = "object.spill"
    OBJECT_RESTORE = "object.restore"
    OBJECT_COPY = "object.copy"
    OBJECT_EVICT = "object.evict"
    PG_CREATE = "pg.create"
    PG_STATE = "pg.state"
    PG_BUNDLES_LOST = "pg.bundles_lost"
    PG_HOT_LOOP = "pg.hot_loop"
    PG_REQUEUE = "pg.requeue"
    PG_VICTIM = "pg.victim"
    LIVENESS_ENABLED = "liveness.enabled"
    LIVENESS_PROBE_FAILED = "liveness.probe_failed"
    LIVENESS_ALIVE = "liveness.alive"
    LIVENESS_SUSPECT = "liveness.suspect"
    LIVENESS_DEAD = "liveness.dead"
    LIVENESS_ZOMBIE = "liveness.zombie"
    LIVENESS_ZOMBIE_FINISHED = "liveness.zombie_finished"
    LIVENESS_BLACKLIST = "liveness.blacklist"
    EFFECT = "effect"


@dataclass(frozen=True)
class EventSpec:
    fields: tuple[str, ...]  # always present
    optional: tuple[str, ...] = ()  # present only when they say something
    doc: str = ""
    # Computed once: the log checks every record against them.
    required: frozenset[str] = field(init=False)
    allowed: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "required", frozenset(self.fields))
        object.__setattr__(self, "allowed", frozenset(self.fields + self.optional))


CATALOGUE: dict[str, EventSpec] = {
    Kind.NODE_ADD: EventSpec(("node", "id", "resources"), doc="a node joined (id: its first 12 hex digits)"),
    Kind.NODE_DIED: EventSpec(
        ("node", "id", "cause"),
        doc="removed, fault, drained (idle after a drain) or presumed_dead (liveness)",
    ),
    Kind.NODE_PAUSED: EventSpec(
        ("node",),
        ("until",),
        "a pause_node or hang_node fault froze a node: it runs nothing until `until` (absent: for good, hung)",
    ),
    Kind.NODE_RESUMED: EventSpec(("node",), doc="a paused node runs again"),
    Kind.NODE_DRAINING: EventSpec(
        ("node", "reason"),
        ("deadline",),
        "a drain was accepted (miniray/drain.py): no new work there; `deadline`: the virtual time the "
        "caller said it would kill the node by (absent: none); the drain itself kills nothing",
    ),
    Kind.NODE_DRAIN_REJECTED: EventSpec(
        ("node", "reason", "message"), doc="the GCS refused a drain: idle termination of a busy node"
    ),
    Kind.CLUSTER_REMOVE_NODE: EventSpec(("node", "graceful"), doc="Cluster.remove_node was called"),
    Kind.WORKER_DIED: EventSpec(
        ("worker", "node", "cause"), doc="a worker process is gone (worker: its pid)"
    ),
    Kind.WORKER_EXIT: EventSpec(("worker", "node", "attempt", "reason"), doc="os._exit or a crash in a body"),
    Kind.WORKER_SIGNAL: EventSpec(
        ("worker", "node", "signal"), doc="os.kill sent a fatal signal to a simulated worker's pid"
    ),
    Kind.MEMORY_KILL: EventSpec(
        ("node", "worker", "victim", "used_gb", "capacity_gb"),
        doc="the memory monitor killed a worker (miniray/memory): the node was over its threshold",
    ),
    Kind.GCS_DIED: EventSpec(
        ("node", "reconnect_timeout_s"), doc="the head node's GCS died (miniray/head): actors and groups wait"
    ),
    Kind.GCS_UNREACHABLE: EventSpec(
        ("after_s",), doc="the driver gave up on the dead GCS and exits (Ray: the process terminates)"
    ),
    Kind.FAULT: EventSpec(("fault",), doc="an injected fault strikes (its replay token)"),
    Kind.TASK_SUBMIT: EventSpec(("task", "id", "ordinal", "owner"), doc="a task or actor call was submitted"),
    Kind.TASK_START: EventSpec(
        ("task", "attempt", "node", "worker"),
        ("fetch_s",),
        "an attempt starts (fetch_s: spilled-argument read)",
    ),
    Kind.TASK_FINISH: EventSpec(
        ("task", "attempt", "node"), doc="an attempt returned and its returns are stored"
    ),
    Kind.TASK_ERROR: EventSpec(
        ("task", "attempt", "error", "retry"), doc="an attempt raised (error: class name)"
    ),
    Kind.TASK_FAIL: EventSpec(
        ("task", "attempt", "cause", "retry"), doc="the worker or node died under an attempt"
    ),
    Kind.TASK_RECONSTRUCT: EventSpec(
        ("task", "id", "object"), doc="a finished task re-runs to rebuild a lost object"
    ),
    Kind.TASK_CANCEL: EventSpec(
        ("task", "attempt", "force", "state"), doc="ray.cancel reached a task (state: where it was)"
    ),
    Kind.ACTOR_CREATE: EventSpec(("actor", "name"), doc="an actor was created (name: '' if unnamed)"),
    Kind.ACTOR_START: EventSpec(("actor", "node", "worker", "restart"), doc="an actor's process starts"),
    Kind.ACTOR_STATE: EventSpec(("actor", "state"), ("cause",), "an actor's state changed (ActorState)"),
    Kind.ACTOR_KILL: EventSpec(("actor", "no_restart"), doc="ray.kill was called on the actor"),
    Kind.ACTOR_STALLED: EventSpec(
        ("actor", "worker"),
        doc="a stall_actor fault hung the actor's process: alive and ALIVE, its calls never return",
    ),
    Kind.OBJECT_FREE: EventSpec(("object", "reason"), doc="an object left the cluster"),
    Kind.OBJECT_SPILL: EventSpec(
        ("object", "node", "size"), ("fallback",), "a copy moved to the node's disk"
    ),
    Kind.OBJECT_RESTORE: EventSpec(("object", "node", "size"), doc="a spilled copy moved back into memory"),
    Kind.OBJECT_COPY: EventSpec(
        ("object", "node", "size"), doc="a reader's node got a copy of an object (a get, a task's argument)"
    ),
    Kind.OBJECT_EVICT: EventSpec(("object", "node"), doc="a reader's copy was dropped to make room"),
    Kind.PG_CREATE: EventSpec(("pg", "strategy", "bundles"), doc="a placement group was created"),
    Kind.PG_STATE: EventSpec(("pg", "old", "new"), doc="a placement group's state changed"),
    Kind.PG_BUNDLES_LOST: EventSpec(("pg", "node", "bundles"), doc="a dead node took bundles with it"),
    Kind.PG_HOT_LOOP: EventSpec(("groups",), doc="the GCS queue entered a hot retry loop"),
    Kind.PG_REQUEUE: EventSpec(
        ("pg", "attempt", "answer"),
        doc="a custom queue policy (a callable placement_group_queue_policy, miniray's own) sent a "
        "failed attempt's group to the front or to back off; the built-in policies write none",
    ),
    Kind.PG_VICTIM: EventSpec(("pg", "released"), doc="a rescheduler released a group to break a cycle"),
    Kind.LIVENESS_ENABLED: EventSpec(("probe_interval_s", "unhealthy_threshold"), doc="the detector started"),
    Kind.LIVENESS_PROBE_FAILED: EventSpec(("node", "failures", "threshold"), doc="a probe timed out"),
    Kind.LIVENESS_ALIVE: EventSpec(("node", "failures", "cause"), doc="a SUSPECT node answered again"),
    Kind.LIVENESS_SUSPECT: EventSpec(("node", "failures", "cause"), doc="a node missed a probe"),
    Kind.LIVENESS_DEAD: EventSpec(("node", "failures", "cause"), doc="the detector's verdict"),
    Kind.LIVENESS_ZOMBIE: EventSpec(
        ("attempt", "node", "worker"), doc="an attempt outlives its node's verdict"
    ),
    Kind.LIVENESS_ZOMBIE_FINISHED: EventSpec(
        ("attempt", "node", "outcome", "detail"), doc="a zombie attempt ended; its result is dropped"
    ),
    Kind.LIVENESS_BLACKLIST: EventSpec(
        ("node", "failures", "successes"), doc="attribution blacklisted a node"
    ),
    Kind.EFFECT: EventSpec(
        ("attempt", "service", "op", "key", "outcome", "token"),
        doc="a simulated service call (liveness.services)",
    ),
}


class CatalogueError(ValueError):
    """An emitter used a kind or a field the catalogue does not list: a bug in miniray."""


def check(catalogue: dict[str, EventSpec], kind: str, fields: dict) -> None:
    spec = catalogue.get(kind)
    if spec is None:
        raise CatalogueError(f"unknown event kind {kind!r}: add it to miniray/events.py (Kind and CATALOGUE)")
    names = fields.keys()
    if spec.required.issubset(names) and spec.allowed.issuperset(names):
        return
    missing = [f for f in spec.fields if f not in names]
    extra = sorted(names - spec.allowed)
    if missing or extra:
        raise CatalogueError(
            f"event {kind!r} has fields {sorted(names)}: missing {missing}, unexpected {extra}; "
            "miniray/events.py lists what it carries."
        )
