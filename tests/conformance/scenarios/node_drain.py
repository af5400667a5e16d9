"""Draining a node (issue 29), through `ray._raylet.GcsClient(address).drain_node(...)` as Ray's
own tests do (`_cluster.drain`): Ray 2.60 has no public drain API.

`preempted`: a node drained for preemption with a 2 s deadline while a task runs on it. New work
placed there by resources or hard affinity waits, soft affinity goes elsewhere, the running task
goes on past the deadline (the drain kills nothing) and sees its node among
`ray._private.state.state.get_draining_nodes()` (the only place Ray shows it: `ray.nodes()`' row
is an active node's); once idle, the node exits by itself with Ray's preemption death reason.
`killed_at_deadline`: the caller kills the drained node at the deadline, as a cloud does; its task
and its actor's call fail (the actor's error says `preempted`), and a task with `max_retries=1` killed
there and then crashed once: is the preemption counted against its retries? `idle_termination`: a drain for idle termination is refused while the
node is busy and accepted once it is idle. `removed_undrained`: the death reason of a node removed
with no drain, for comparison.
"""

import os
import time

from _cluster import FAST_FAILURE_DETECTION, IDLE_TERMINATION, PREEMPTION, drain
from _observe import get_or_error, outcome, pass_time, wait_until
from _said import error as said_error
from _said import normalise

# Real Ray needs about a minute for this one (five nodes): checked against the recording.
LIVE_ON_RAY = False

STEP_S = 0.1
ROW_KEYS = ("Alive", "alive", "DeathReason", "DeathReasonMessage")


def run(ray, cluster_utils, workdir):
    cluster = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "include_dashboard": False, "_system_config": FAST_FAILURE_DETECTION},
    )
    ray.init(address=cluster.address)
    try:
        other = cluster.add_node(num_cpus=2, resources={"other": 2})
        return {
            "preempted": _preempted(ray, cluster, other, workdir),
            "killed_at_deadline": _killed_at_deadline(ray, cluster, workdir),
            "idle_termination": _idle_termination(ray, cluster, workdir),
            "removed_undrained": _removed_undrained(ray, cluster),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


class Started:
    """A file a body creates as it starts, so the driver drains only once the work is running (a
    lease still on its way when the drain lands would never be granted). Picklable for Ray."""

    def __init__(self, workdir, name):
        self.path = os.path.join(workdir, name + ".started")

    def mark(self):
        open(self.path, "w").close()

    def wait(self, ray):
        return wait_until(ray, lambda: os.path.exists(self.path))


def _row(ray, node_id):
    return next(n for n in ray.nodes() if n["NodeID"] == node_id)


def _draining(ray):
    return ray._private.state.state.get_draining_nodes()


def _dead(ray, node_id):
    return wait_until(ray, lambda: not _row(ray, node_id)["Alive"])


def _preempted(ray, cluster, other, workdir):
    started = Started(workdir, "watch")
    doomed = cluster.add_node(num_cpus=2, resources={"doomed": 2})
    affinity = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy

    @ray.remote
    def watch(seconds):
        """Works in short steps; the first time it sees its own node draining, notes how long the
        deadline leaves it, on its own clock."""
        started.mark()
        me = ray.get_runtime_context().get_node_id()
        left = None
        for _ in range(int(seconds / STEP_S)):
            time.sleep(STEP_S)
            deadline_ms = _draining(ray).get(me) if left is None else None
            if deadline_ms:
                left = deadline_ms / 1000 - time.time()
        return left

    @ray.remote
    def where():
        return ray.get_runtime_context().get_node_id()

    def names(node_id):
        return {doomed.node_id: "doomed", other.node_id: "other"}.get(node_id, "elsewhere")

    job = watch.options(resources={"doomed": 1}).remote(8.0)
    started.wait(ray)
    reply, _ = drain(ray, cluster.address, doomed.node_id, PREEMPTION, "spot-notice", deadline_s=2)
    draining = _draining(ray)
    row = _row(ray, doomed.node_id)
    out = {
        "reply": list(reply),
        "draining_nodes": [names(k) for k in draining],
        "has_a_deadline": draining.get(doomed.node_id, 0) > 0,
        "row_while_draining": {k: row[k] for k in ROW_KEYS},
        "row_names_draining": any("drain" in k.lower() for k in row),
        "row_lists_its_resources": row["Resources"].get("doomed") == 2,
    }
    pinned = where.options(resources={"doomed": 1}).remote()
    hard = where.options(scheduling_strategy=affinity(doomed.node_id, soft=False)).remote()
    soft = where.options(scheduling_strategy=affinity(doomed.node_id, soft=True)).remote()
    out["pinned_by_resource"] = outcome(ray, pinned, timeout=1.0)
    out["hard_affinity"] = outcome(ray, hard, timeout=0.5)
    soft_at, _ = get_or_error(ray, soft, timeout=20.0)  # a fresh worker there may take seconds
    out["soft_affinity_on"] = names(soft_at)
    pass_time(ray, 1.5)  # 3 s or more since the drain: past its deadline, the job still runs
    out["alive_past_deadline"] = _row(ray, doomed.node_id)["Alive"]
    left, error = get_or_error(ray, job)
    out["job_saw_its_node_draining"] = error is None and left is not None
    out["job_saw_1_to_2_s_left"] = left is not None and 1.0 < left <= 2.0
    out["exited_once_idle"] = _dead(ray, doomed.node_id)
    row = _row(ray, doomed.node_id)
    out["row_after_exit"] = {k: row[k] for k in ROW_KEYS}
    out["draining_after_exit"] = [names(k) for k in _draining(ray)]
    out["pinned_after_exit"] = outcome(ray, pinned, timeout=0.5)
    return out


def _killed_at_deadline(ray, cluster, workdir):
    node = cluster.add_node(num_cpus=1, resources={"doomed2": 1})
    task_started, call_started = Started(workdir, "task"), Started(workdir, "call")

    @ray.remote(max_retries=0)
    def hold(seconds):
        task_started.mark()
        time.sleep(seconds)
        return "done"

    crashed_once = os.path.join(workdir, "crashed_once")

    @ray.remote(max_retries=1)
    def retried(doomed_id):
        """Held on the doomed node; its next attempt crashes once, its last returns."""
        if ray.get_runtime_context().get_node_id() == doomed_id:
            time.sleep(60)
        if not os.path.exists(crashed_once):
            open(crashed_once, "w").close()
            os._exit(1)
        return "done"

    @ray.remote(max_restarts=0)
    class Holder:
        def ready(self):
            return True

        def hold(self, seconds):
            call_started.mark()
            time.sleep(seconds)
            return "done"

    actor = Holder.options(num_cpus=0, resources={"doomed2": 0.5}).remote()
    ray.get(actor.ready.remote())
    task = hold.options(resources={"doomed2": 0.5}).remote(60)
    call = actor.hold.remote(60)
    soft_here = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node.node_id, soft=True)
    free_retry = retried.options(scheduling_strategy=soft_here, num_cpus=0).remote(node.node_id)
    task_started.wait(ray)
    call_started.wait(ray)
    (accepted, _), _ = drain(ray, cluster.address, node.node_id, PREEMPTION, "spot-notice", 1)
    pass_time(ray, 1.0)
    cluster.remove_node(node, allow_graceful=False)  # the caller's part, at the deadline
    _, task_error = get_or_error(ray, task)
    _, call_error = get_or_error(ray, call)
    out = {
        "accepted": accepted,
        "task": outcome(ray, task),
        # max_retries=1: one retry after the preemption and one after a crash, or only the first?
        "max_retries_1_preempted_then_crashed": outcome(ray, free_retry),
        "actor_call": outcome(ray, call),
        "actor_error_preempted": getattr(call_error, "preempted", None),
        "actor_text_says_preempted": "preempt" in str(call_error).lower(),
        "_said_task": said_error(task_error),
        "_said_actor": said_error(call_error),
    }
    _dead(ray, node.node_id)
    row = _row(ray, node.node_id)
    out["row_after_removal"] = {k: row[k] for k in ("Alive", "DeathReason")}
    return out


def _idle_termination(ray, cluster, workdir):
    node = cluster.add_node(num_cpus=1, resources={"spare": 1})
    started = Started(workdir, "busy")

    @ray.remote
    def hold(seconds):
        started.mark()
        time.sleep(seconds)
        return "done"

    busy = hold.options(resources={"spare": 1}).remote(2)
    started.wait(ray)
    reply_busy, _ = drain(ray, cluster.address, node.node_id, IDLE_TERMINATION, "idle")
    out = {"busy_reply": list(reply_busy), "busy_draining": node.node_id in _draining(ray)}
    out["busy_task"] = outcome(ray, busy)
    pass_time(ray, 1.0)  # its lease returned
    reply_idle, _ = drain(ray, cluster.address, node.node_id, IDLE_TERMINATION, "idle")
    out["idle_reply"] = list(reply_idle)
    out["exited"] = _dead(ray, node.node_id)
    row = _row(ray, node.node_id)
    out["row_after_exit"] = {k: row[k] for k in ROW_KEYS}
    return out


def _removed_undrained(ray, cluster):
    """For comparison: a node removed with no drain before it."""
    node = cluster.add_node(num_cpus=1, resources={"plain": 1})
    cluster.remove_node(node, allow_graceful=False)
    _dead(ray, node.node_id)
    row = _row(ray, node.node_id)
    return {
        "death_reason": row["DeathReason"],
        "has_message": bool(row["DeathReasonMessage"]),
        "_said": normalise(row["DeathReasonMessage"]),
    }
