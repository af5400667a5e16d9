"""A slice of `ray.util.state`: actors, tasks, objects, nodes, workers and placement groups,
as the dashboard shows them, plus `summarize_tasks` (`ray summary tasks`) and `memory`
(`ray memory`). Rows allow both row.state and row["state"], as Ray's do. Reading never changes
the run (placement groups settle their batched attempts first, as any read of them does).
"""

from __future__ import annotations

from .. import context
from ..events import Kind
from ..observe import memory as mem
from ..states import NodeState


class _Row(dict):
    """Ray's state API rows allow both row.state and row["state"]."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _rt():
    return context.require("reading the cluster's state")


def list_actors(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rows = []
    for actor in _rt().actors.actors.values():
        rows.append(
            _Row(
                actor_id=actor.actor_id,
                class_name=actor.class_name,
                state=actor.state,
                name=actor.name or "",
                num_restarts=actor.num_restarts,
                node_id=actor.node.node_id if actor.node else None,
                pid=actor.worker.pid if actor.worker else None,
            )
        )
    return _filter(rows, filters)[:limit]


def get_actor(id: str):
    for row in list_actors():
        if row["actor_id"] == id:
            return row
    return None


def list_tasks(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rt = _rt()
    worker_ids = {w.pid: w.worker_id for w in rt.workers}
    rows = []
    for spec in rt.tasks.all:
        rows.append(
            _Row(
                task_id=spec.task_id,
                name=spec.name,
                state=spec.state,
                attempt_number=max(0, spec.attempts - 1),
                type={"task": "NORMAL_TASK", "actor_task": "ACTOR_TASK"}.get(spec.kind, spec.kind),
                node_id=spec.node.node_id if spec.node else None,
                func_or_class_name=spec.name,
                worker_id=worker_ids.get(spec.pid),
                actor_id=spec.actor.actor_id if spec.actor is not None else None,
            )
        )
    return _filter(rows, filters)[:limit]


def list_objects(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    """Every live object: size, owner, reference type, and where it lives (see `memory`)."""
    return _filter([_Row(r) for r in mem.rows(_rt())], filters)[:limit]


def list_nodes(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rt = _rt()
    stats = {s["node"]: s for s in mem.store_stats(rt)}
    rows = []
    for node in rt.nodes:
        s = stats[node.name]
        rows.append(
            _Row(
                node_id=node.node_id,
                node_name=node.name,
                node_ip=node.address,
                state=NodeState.ALIVE if node.alive else NodeState.DEAD,
                is_head_node=node.is_head,
                resources_total={k: v for k, v in node.total.items()},
                labels=dict(node.labels),
                object_store_memory=node.object_store_memory,
                object_store_used=s["used"],
                object_store_fill_pct=s["fill_pct"],
                spilled_bytes=s["spilled"],
            )
        )
    return _filter(rows, filters)[:limit]


def list_workers(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rt = _rt()
    causes = {r["worker"]: r["cause"] for r in rt._log.of_kind(Kind.WORKER_DIED)}
    rows = []
    for w in rt.workers:
        rows.append(
            _Row(
                worker_id=w.worker_id,
                worker_type="DRIVER" if w.kind == "driver" else "WORKER",
                kind=w.kind,
                is_alive=w.alive,
                pid=w.pid,
                node_id=w.node.node_id,
                node_name=w.node.name,
                exit_type=None if w.alive else _EXIT.get(causes.get(w.pid, ""), "SYSTEM_ERROR"),
                exit_detail=None if w.alive else causes.get(w.pid),
                actor_id=w.actor.actor_id if w.actor is not None else None,
            )
        )
    return _filter(rows, filters)[:limit]


# Ray's WorkerExitType for miniray's death causes.
_EXIT = {
    "killed": "INTENDED_USER_EXIT",
    "actor_exit": "INTENDED_SYSTEM_EXIT",
    "exit": "SYSTEM_ERROR",
    "fault": "SYSTEM_ERROR",
    "node_died": "NODE_DIED",
    "placement_group_removed": "INTENDED_SYSTEM_EXIT",
}


def list_placement_groups(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rt = _rt()
    if rt.placement is None:
        return []
    rows = []
    for pg_id, row in rt.placement.table().items():
        rows.append(
            _Row(
                placement_group_id=pg_id,
                name=row["name"],
                state=row["state"],
                strategy=row["strategy"],
                bundles=row["bundles"],
                bundles_to_node_id=row["bundles_to_node_id"],
                stats=row["stats"],
                scheduling_attempt=row["stats"]["scheduling_attempt"],
            )
        )
    return _filter(rows, filters)[:limit]


def summarize_tasks() -> dict:
    """`ray summary tasks`: counts by function name and state, in Ray's result shape."""
    summary: dict[str, _Row] = {}
    totals = {"NORMAL_TASK": 0, "ACTOR_TASK": 0}
    for row in list_tasks():
        entry = summary.get(row["name"])
        if entry is None:
            entry = summary[row["name"]] = _Row(
                func_or_class_name=row["name"], type=row["type"], state_counts={}
            )
        entry["state_counts"][row["state"]] = entry["state_counts"].get(row["state"], 0) + 1
        totals[row["type"]] = totals.get(row["type"], 0) + 1
    return _Row(
        cluster=_Row(
            summary=summary,
            total_tasks=totals["NORMAL_TASK"],
            total_actor_tasks=totals["ACTOR_TASK"],
            summary_by="func_name",
        )
    )


class MemorySummary(list):
    """`ray memory`: a list of object rows, with the per-node store totals and the printed report."""

    def __init__(self, rows: list, stores: list, text: str):
        super().__init__(rows)
        self.stores = stores
        self.text = text

    def __str__(self) -> str:
        return self.text

    def total(self, where: str | None = None, owner_type: str | None = None) -> int:
        return sum(
            r["object_size"]
            for r in self
            if (where is None or r["where"] == where) and (owner_type is None or r["type"] == owner_type)
        )


def memory() -> MemorySummary:
    """Every live ref with its owner, size, where it lives (IN_MEMORY, SPILLED, INLINED, ...)."""
    rt = _rt()
    return MemorySummary(
        [_Row(r) for r in mem.rows(rt)], [_Row(s) for s in mem.store_stats(rt)], mem.text(rt)
    )


def _filter(rows: list, filters) -> list:
    for key, op, value in filters or []:
        if op == "=":
            rows = [r for r in rows if str(r.get(key)) == str(value)]
        elif op == "!=":
            rows = [r for r in rows if str(r.get(key)) != str(value)]
        else:
            raise ValueError(f"Unsupported filter operator {op!r}; use '=' or '!='.")
    return rows
