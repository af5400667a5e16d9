"""A slice of `ray.util.state`: the actors' and tasks' states, as the dashboard shows them."""
from __future__ import annotations

from .. import context


class _Row(dict):
    """Ray's state API rows allow both row.state and row["state"]."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _rt():
    rt = context.current()
    if rt is None:
        raise RuntimeError("miniray is not initialized.")
    return rt


def list_actors(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rows = []
    for actor in _rt().actors.actors.values():
        rows.append(_Row(actor_id=actor.actor_id, class_name=actor.class_name, state=actor.state,
                         name=actor.name or "", num_restarts=actor.num_restarts,
                         node_id=actor.node.node_id if actor.node else None,
                         pid=actor.worker.pid if actor.worker else None))
    return _filter(rows, filters)[:limit]


def get_actor(id: str):
    for row in list_actors():
        if row["actor_id"] == id:
            return row
    return None


def list_tasks(filters=None, limit: int = 10_000, detail: bool = False) -> list:
    rows = []
    for spec in _rt().tasks.all:
        rows.append(_Row(task_id=spec.task_id, name=spec.name, state=spec.state,
                         attempt_number=max(0, spec.attempts - 1),
                         type={"task": "NORMAL_TASK", "actor_task": "ACTOR_TASK"}.get(spec.kind, spec.kind),
                         node_id=spec.node.node_id if spec.node else None))
    return _filter(rows, filters)[:limit]


def _filter(rows: list, filters) -> list:
    for key, op, value in filters or []:
        if op == "=":
            rows = [r for r in rows if str(r.get(key)) == str(value)]
        elif op == "!=":
            rows = [r for r in rows if str(r.get(key)) != str(value)]
        else:
            raise ValueError(f"Unsupported filter operator {op!r}; use '=' or '!='.")
    return rows
