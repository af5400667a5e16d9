"""`miniray.timeline()`: the runtime's event log as a Chrome trace, one track per node and worker.

Built only from `rt._log.records`, after the fact, so exporting a timeline never changes a run.
Layout (what Perfetto shows, top to bottom):
    pid 1          "cluster (GCS)": faults, placement groups (a thread per group, its state as
                   slices), liveness, actors, lineage, anything else logged
    pid 2 + i      "node:i": thread 1 is the raylet (node added/died/paused, spills, health);
                   one thread per worker pid with its task attempts as slices
Attempt slices carry the attempt number, whether it was a retry or a reconstruction, what ended
it and the disk time spent reading spilled arguments. An attempt that outlives its node's
presumed death (a zombie) stays open until it really ends. With a metrics sampler attached
(`miniray.sim.metrics()`), its series become counter tracks.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import context
from ..events import Kind
from ..runtime import Runtime
from .trace import Trace, finish

GCS = 1
JOB_ID = "01000000"  # Ray's first job id; miniray runs one job
RAYLET = 1
T_FAULTS, T_PG, T_LIVENESS, T_ACTORS, T_LINEAGE, T_OTHER = 1, 2, 3, 4, 5, 6
GCS_THREADS = {
    T_FAULTS: "faults",
    T_PG: "placement groups",
    T_LIVENESS: "liveness",
    T_ACTORS: "actors",
    T_LINEAGE: "lineage (reconstruction)",
    T_OTHER: "other events",
}


def node_pid(name: str) -> int:
    return int(str(name).split(":")[1]) + 2 if str(name).startswith("node:") else GCS


def attempt_number(key: str) -> int:
    """Ray's attempt_number is 0-based; miniray's attempt keys ("f#1/2") count from 1."""
    return int(key.rsplit("/", 1)[1]) - 1


class _Builder:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.trace = Trace()
        # Ray's slice args name the task, its function, actor and worker by id: look them up.
        self.specs = {f"{s.name}#{s.ordinal}": s for s in rt.tasks.all}
        self.actors = {repr(a): a for a in rt.actors.actors.values()}
        self.worker_ids = {w.pid: w.worker_id for w in rt.workers}
        self.open: dict[str, dict] = {}  # attempt key -> the slice being drawn
        self.where: dict[int, int] = {}  # worker pid -> node pid
        self.last_end: dict[str, tuple] = {}  # "f#1" -> (attempt key, how it ended)
        self.rebuilding: set = set()  # "f#1" whose next attempt is a lineage reconstruction
        self.ordinals: dict[str, str] = {}  # task id prefix -> "f#1"
        self.zombies: set = set()
        self.actor_thread: dict[str, tuple[int, int]] = {}  # actor repr -> (pid, tid) of its current worker
        self.paused: dict[int, tuple] = {}  # node pid -> (start, fault token)
        self.pg_state: dict[str, tuple] = {}  # group label -> (since, state)
        self.pg_tid: dict[str, int] = {}
        self.last_fault = ""  # the token of the latest fault record

    # -- tracks ------------------------------------------------------------------------------
    def gcs(self, tid: int) -> tuple[int, int]:
        self.trace.process(GCS, "cluster (GCS)", 0)
        self.trace.thread(GCS, tid, GCS_THREADS.get(tid, "events"))
        return GCS, tid

    def raylet(self, node: str) -> tuple[int, int]:
        pid = node_pid(node)
        self.trace.process(pid, node, pid)
        self.trace.thread(pid, RAYLET, "raylet", 0)
        return pid, RAYLET

    def worker(self, node: str, wpid: int, label: str = "") -> tuple[int, int]:
        pid = node_pid(node)
        self.where[wpid] = pid
        self.trace.process(pid, node, pid)
        driver = self.rt.driver
        if driver is not None and driver.pid == wpid:
            label = "driver"
        self.trace.thread(pid, wpid, f"{label or 'worker'} pid={wpid}", wpid)
        return pid, wpid

    def thread_of_attempt(self, key: str) -> tuple[int, int] | None:
        s = self.open.get(key)
        return (s["pid"], s["tid"]) if s is not None else None

    # -- slices ------------------------------------------------------------------------------
    def begin(self, key: str, name: str, cat: str, t: float, pid: int, tid: int, args: dict) -> None:
        self.open[key] = {"name": name, "cat": cat, "start": t, "pid": pid, "tid": tid, "args": args}

    def end(self, key: str, t: float, outcome: str, **more) -> None:
        s = self.open.pop(key, None)
        if s is None:
            return
        args = dict(s["args"], outcome=outcome, **more)
        self.trace.slice(s["name"], s["cat"], s["start"], t, s["pid"], s["tid"], args, cname=_color(args))

    def end_on_thread(self, pid: int, tid: int, t: float, outcome: str) -> None:
        for key in [k for k, s in self.open.items() if (s["pid"], s["tid"]) == (pid, tid)]:
            if key not in self.zombies:
                self.end(key, t, outcome)

    # -- the records -----------------------------------------------------------------------------
    def feed(self, rec) -> None:
        kind, t, f = rec.kind, rec.time, rec.fields
        handler = HANDLERS.get(kind)
        if handler is not None:
            handler(self, t, f)
        elif kind.startswith("liveness."):
            self.on_liveness(kind, t, f)
        elif kind.startswith("pg."):
            self.trace.instant(kind, "placement_group", t, *self.gcs(T_PG), f)
        else:
            self.trace.instant(kind, kind.split(".")[0], t, *self.gcs(T_OTHER), f)

    def on_node_add(self, t, f):
        self.trace.instant("node added", "node", t, *self.raylet(f["node"]), f, scope="p")

    def on_node_died(self, t, f):
        self.trace.instant(f"node died ({f.get('cause')})", "node", t, *self.raylet(f["node"]), f, scope="p")

    def on_node_resumed(self, t, f):
        pid, tid = self.raylet(f["node"])
        start = self.paused.pop(pid, None)
        if start is not None:
            self.trace.slice("paused", "fault", start[0], t, pid, tid, {"fault": start[1]})

    def on_fault(self, t, f):
        self.last_fault = str(f.get("fault", ""))
        self.trace.instant(f"fault: {self.last_fault}", "fault", t, *self.gcs(T_FAULTS), f, scope="g")

    def on_node_paused(self, t, f):
        # The fault that froze it struck just before (its record comes first): the slice names it.
        self.paused.setdefault(node_pid(f["node"]), (t, self.last_fault))
        self.raylet(f["node"])

    def on_cluster_remove_node(self, t, f):
        self.trace.instant(f"remove {f['node']}", "fault", t, *self.gcs(T_FAULTS), f, scope="g")

    def on_task_submit(self, t, f):
        self.ordinals[str(f["id"])] = f"{f['task']}#{f['ordinal']}"

    def on_task_start(self, t, f):
        key = f["attempt"]
        call = key.rsplit("/", 1)[0]
        pid, tid = self.worker(f["node"], f["worker"])
        args = {
            "attempt": key,
            "attempt_number": attempt_number(key),
            "node": f["node"],
            "worker": f["worker"],
        }
        prev = self.last_end.pop(call, None)
        if prev is not None:
            args["retry_of"], args["previous_outcome"] = prev
        if call in self.rebuilding:
            self.rebuilding.discard(call)
            args["reconstruction"] = True
        if f.get("fetch_s"):
            args["spilled_read_s"] = f["fetch_s"]
        spec = self.specs.get(call)
        cat = "actor_task" if spec is not None and spec.kind == "actor_task" else "task"
        args.update(
            self.ray_args(
                spec.task_id if spec else None,
                f["task"],
                spec.actor if spec is not None else None,
                f["worker"],
            )
        )
        self.begin(key, f["task"], cat, t, pid, tid, args)

    def ray_args(self, task_id, name: str, actor, worker: int) -> dict:
        """The keys Ray's own timeline puts in every slice's args."""
        return {
            "task_id": task_id,
            "func_or_class_name": name,
            "job_id": JOB_ID,
            "actor_id": actor.actor_id if actor is not None else None,
            "worker_id": self.worker_ids.get(worker),
        }

    def on_task_finish(self, t, f):
        self.end(f["attempt"], t, "FINISHED")

    def on_task_error(self, t, f):
        self._ended(f["attempt"], t, f"error: {f['error']}", f.get("retry"))

    def on_task_fail(self, t, f):
        key = f["attempt"]
        where = self.thread_of_attempt(key)
        if where is not None:
            self.trace.instant(f"attempt failed ({f['cause']})", "task", t, *where, f)
        self._ended(key, t, f"failed: {f['cause']}", f.get("retry"))

    def _ended(self, key: str, t: float, outcome: str, retry) -> None:
        if retry:
            self.last_end[key.rsplit("/", 1)[0]] = (key, outcome)
        if key in self.zombies:  # presumed dead, still running: the slice ends when it does
            return
        self.end(key, t, outcome, retried=bool(retry))

    def on_task_reconstruct(self, t, f):
        call = self.ordinals.get(str(f["id"]))
        if call is not None:
            self.rebuilding.add(call)
        self.trace.instant(f"reconstruct {f['task']}", "reconstruction", t, *self.gcs(T_LINEAGE), f)

    def on_worker_exit(self, t, f):
        pid, tid = self.worker(f["node"], f["worker"])
        self.trace.instant(f"worker exit ({f.get('reason')})", "worker", t, pid, tid, f)
        self.end(f["attempt"], t, f"worker exit: {f.get('reason')}")

    def on_worker_died(self, t, f):
        pid, tid = self.worker(f["node"], f["worker"])
        self.trace.instant(f"worker died ({f['cause']})", "worker", t, pid, tid, f)
        self.end_on_thread(pid, tid, t, f"worker died: {f['cause']}")

    def on_actor_create(self, t, f):
        self.trace.instant(f"create {f['actor']}", "actor", t, *self.gcs(T_ACTORS), f)

    def on_actor_start(self, t, f):
        actor = f["actor"]
        pid, tid = self.worker(f["node"], f["worker"], f"actor {actor}")
        self.actor_thread[actor] = (pid, tid)
        name = actor.split("(")[0] + ".__init__"
        obj = self.actors.get(actor)
        args = {"actor": actor, "restart": f.get("restart", 0), "node": f["node"]}
        args.update(
            self.ray_args(getattr(getattr(obj, "creation", None), "task_id", None), name, obj, f["worker"])
        )
        self.begin(f"{actor}/init", name, "actor_creation", t, pid, tid, args)

    def on_actor_state(self, t, f):
        actor, state = f["actor"], f["state"]
        if state in ("ALIVE", "DEAD"):
            self.end(f"{actor}/init", t, state)
        where = self.actor_thread.get(actor) or self.gcs(T_ACTORS)
        self.trace.instant(f"actor {state}", "actor", t, *where, f)
        if where[0] != GCS:
            self.trace.instant(f"{actor} {state}", "actor", t, *self.gcs(T_ACTORS), f)

    def on_actor_kill(self, t, f):
        self.trace.instant(f"kill {f['actor']}", "actor", t, *self.gcs(T_ACTORS), f)

    def on_object_free(self, t, f):
        pass  # one per object: too many to draw; `miniray.util.state.memory()` shows what is left

    def on_object_spill(self, t, f):
        self.trace.instant("spill", "object_store", t, *self.raylet(f["node"]), f)

    def on_object_restore(self, t, f):
        self.trace.instant("restore", "object_store", t, *self.raylet(f["node"]), f)

    def on_object_copy(self, t, f):  # a reader's node pulled it: one more copy that can outlive the first
        self.trace.instant("copy", "object_store", t, *self.raylet(f["node"]), f)

    def on_object_evict(self, t, f):
        self.trace.instant("evict copy", "object_store", t, *self.raylet(f["node"]), f)

    def on_pg_state(self, t, f):
        label = str(f["pg"])
        tid = self.pg_tid.setdefault(label, 100 + len(self.pg_tid))
        self.gcs(T_PG)
        self.trace.thread(GCS, tid, f"pg {label}", tid)
        since = self.pg_state.get(label)
        if since is not None:
            self.trace.slice(since[1], "placement_group", since[0], t, GCS, tid, {"pg": label})
        self.pg_state[label] = (t, f["new"])
        self.trace.instant(f"pg {label}: {f['old']} -> {f['new']}", "placement_group", t, GCS, T_PG, f)

    def on_pg_create(self, t, f):
        self.pg_state.setdefault(str(f["pg"]), (t, "PENDING"))
        self.pg_tid.setdefault(str(f["pg"]), 100 + len(self.pg_tid))
        self.trace.instant(f"create pg {f['pg']}", "placement_group", t, *self.gcs(T_PG), f)

    def on_liveness(self, kind, t, f):
        if kind == "liveness.zombie":
            self.zombies.add(f["attempt"])
        if kind == "liveness.zombie_finished":
            self.zombies.discard(f["attempt"])
            self.end(f["attempt"], t, f"zombie {f.get('outcome')}", zombie=True)
        where = self.raylet(f["node"]) if "node" in f else self.gcs(T_LIVENESS)
        self.trace.instant(kind, "liveness", t, *where, f)
        if where[0] != GCS:
            self.trace.instant(f"{kind} {f['node']}", "liveness", t, *self.gcs(T_LIVENESS), f)

    def on_effect(self, t, f):
        where = self.thread_of_attempt(str(f.get("attempt")))
        if where is None:
            driver = self.rt.driver
            where = self.worker(driver.node.name, driver.pid) if driver is not None else self.gcs(T_OTHER)
        self.trace.instant(f"{f.get('service')}.{f.get('op')} {f.get('outcome')}", "effect", t, *where, f)

    # -- the end of the run ----------------------------------------------------------------------
    def close(self, t: float) -> None:
        for key in list(self.open):
            self.zombies.discard(key)
            self.end(key, t, "unfinished", unfinished=True)
        for pid, (start, token) in sorted(self.paused.items()):
            self.trace.slice("paused", "fault", start, t, pid, RAYLET, {"fault": token, "unfinished": True})
        for label, (since, state) in self.pg_state.items():
            self.trace.thread(GCS, self.pg_tid[label], f"pg {label}", self.pg_tid[label])
            self.trace.slice(state, "placement_group", since, t, GCS, self.pg_tid[label], {"pg": label})


# Which record kinds get a drawing of their own (miniray/events.py lists them all); the rest are
# instants on the cluster track: liveness.* on its own thread, pg.* on the groups', others apart.
HANDLERS: dict[str, Callable[[_Builder, float, dict], None]] = {
    Kind.NODE_ADD: _Builder.on_node_add,
    Kind.NODE_DIED: _Builder.on_node_died,
    Kind.NODE_PAUSED: _Builder.on_node_paused,
    Kind.NODE_RESUMED: _Builder.on_node_resumed,
    Kind.FAULT: _Builder.on_fault,
    Kind.CLUSTER_REMOVE_NODE: _Builder.on_cluster_remove_node,
    Kind.TASK_SUBMIT: _Builder.on_task_submit,
    Kind.TASK_START: _Builder.on_task_start,
    Kind.TASK_FINISH: _Builder.on_task_finish,
    Kind.TASK_ERROR: _Builder.on_task_error,
    Kind.TASK_FAIL: _Builder.on_task_fail,
    Kind.TASK_RECONSTRUCT: _Builder.on_task_reconstruct,
    Kind.WORKER_EXIT: _Builder.on_worker_exit,
    Kind.WORKER_DIED: _Builder.on_worker_died,
    Kind.ACTOR_CREATE: _Builder.on_actor_create,
    Kind.ACTOR_START: _Builder.on_actor_start,
    Kind.ACTOR_STATE: _Builder.on_actor_state,
    Kind.ACTOR_KILL: _Builder.on_actor_kill,
    Kind.OBJECT_FREE: _Builder.on_object_free,
    Kind.OBJECT_SPILL: _Builder.on_object_spill,
    Kind.OBJECT_RESTORE: _Builder.on_object_restore,
    Kind.OBJECT_COPY: _Builder.on_object_copy,
    Kind.OBJECT_EVICT: _Builder.on_object_evict,
    Kind.PG_STATE: _Builder.on_pg_state,
    Kind.PG_CREATE: _Builder.on_pg_create,
    Kind.EFFECT: _Builder.on_effect,
}


def _color(args: dict) -> str | None:
    """chrome://tracing colours (Perfetto picks its own): failures red, zombies and rebuilds apart."""
    outcome = str(args.get("outcome", ""))
    if args.get("zombie"):
        return "bad"
    if outcome.startswith(("error", "failed", "worker")):
        return "terrible"
    if args.get("reconstruction"):
        return "olive"
    if args.get("retry_of"):
        return "yellow"
    return None


def build(rt) -> list[dict]:
    b = _Builder(rt)
    b.trace.process(GCS, "cluster (GCS)", 0)
    if rt.driver is not None:
        b.worker(rt.driver.node.name, rt.driver.pid)
    for rec in rt._log.records:
        b.feed(rec)
    end = max([rt.now()] + [r.time for r in rt._log.records[-1:]])
    b.close(end)
    sampler = rt.metrics
    if sampler is not None:
        sampler.to_counters(b.trace, node_pid, GCS)
    return b.trace.to_list()


def timeline(filename: str | None = None):
    """Like `ray.timeline`: the trace events, or None after writing them to `filename` as JSON."""
    rt = context.last()
    if rt is None:
        raise RuntimeError(
            "No miniray run to export: call miniray.timeline() while a cluster is up "
            "(or right after miniray.sim.run, which keeps the last run)."
        )
    return finish(build(rt), filename)
