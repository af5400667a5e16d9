"""`ray memory` for miniray: every live ObjectRef, who owns it, how big, and where it lives.

Columns follow `ray memory`: the owner's node and pid, whether the owner is the driver or a
worker, the call site (the task that makes it, or `put`), the size, and the reference type.
miniray counts references rather than tracking who holds each, so the reference type is
USED_BY_PENDING_TASK when a task that has not finished takes the object as an argument, and
LOCAL_REFERENCE otherwise. `where` says what the dashboard's store view would: INLINED (small,
kept in the owner's memory), IN_MEMORY (the node's shared-memory store), SPILLED (on the
node's disk: reads pay), PENDING (not created yet), ERROR, or LOST (every copy gone). `node` is
where the primary copy is (pinned), `copies` the nodes where a reader left a copy of its own
(a `get`, a task's argument): the object is lost only when all of them are.
"""

from __future__ import annotations

from ..states import TERMINAL, ObjectState, TaskState

MiB = 1024**2


def _where(objects, entry) -> tuple[str, str | None]:
    if entry.state == ObjectState.PENDING:
        return "PENDING", None
    if entry.state == ObjectState.ERROR:
        return "ERROR", None
    if entry.inlined:
        return "INLINED", entry.owner.node.name
    live = [n for n in entry.locations if n.alive]
    if not live:
        return "LOST", None
    node = live[0]  # the primary while its node lives, else the oldest reader's copy
    return ("IN_MEMORY" if entry.object_id in node.store else "SPILLED"), node.name


def _copies(entry) -> list[str]:
    """The nodes holding a reader's copy (a get or a task argument pulled it there)."""
    return [n.name for n in entry.locations if n.alive and n is not entry.primary]


def _args_in_use(rt) -> set:
    """Objects that a task not yet finished takes as an argument."""
    used: set[str] = set()
    for spec in rt.tasks.all:
        if spec.state not in TERMINAL:
            used.update(ref.hex() for ref in spec.deps())
    return used


def rows(rt) -> list[dict]:
    """One dict per live object, in creation order."""
    objects, used = rt.objects, _args_in_use(rt)
    out = []
    for oid, entry in objects.entries.items():
        where, node = _where(objects, entry)
        owner = entry.owner
        task = entry.task
        out.append(
            {
                "object_id": oid,
                "object_size": entry.size,
                "where": where,
                "node": node,
                "copies": _copies(entry),
                "pinned_in_memory": where == "IN_MEMORY" and node == getattr(entry.primary, "name", None),
                "spilled": where == "SPILLED",
                "inlined": where == "INLINED",
                "reference_type": "USED_BY_PENDING_TASK" if oid in used else "LOCAL_REFERENCE",
                "ref_count": entry.refs,
                "call_site": f"{task.name} (task call)" if task is not None else "(put object)",
                "task_status": task.state if task is not None else TaskState.FINISHED,
                "type": "DRIVER" if owner.kind == "driver" else "WORKER",
                "pid": owner.pid,
                "owner_node": owner.node.name,
                "owner_alive": owner.alive,
                "ip": owner.node.address,
            }
        )
    return out


def store_stats(rt) -> list[dict]:
    """Per node: the store's capacity, what it holds in memory and on disk."""
    out = []
    for node in rt.nodes:
        used = sum(node.store.values())
        out.append(
            {
                "node": node.name,
                "alive": node.alive,
                "capacity": node.object_store_memory,
                "used": used,
                "objects": len(node.store),
                "copies": sum(  # of those, readers' copies (the primary lives elsewhere)
                    1
                    for oid in node.store
                    if (e := rt.objects.entries.get(oid)) is not None and e.primary is not node
                ),
                "fill_pct": 100.0 * used / (node.object_store_memory or 1),
                "spilled": sum(node.spilled.values()),
                "spilled_objects": len(node.spilled),
                "spilled_total": rt.objects.stores.spilled_bytes.get(node.name, 0),
                "restored_total": rt.objects.stores.read_from_disk.get(node.name, 0),
            }
        )
    return out


def _size(n: float) -> str:
    return f"{n / MiB:.2f} MiB" if n < 1024**3 else f"{n / 1024**3:.2f} GiB"


def text(rt) -> str:
    """The report `ray memory` prints, in its layout: per owner node a summary line and a table of
    refs (Ray groups by node address; every simulated node is 127.0.0.1, so miniray groups by node
    name), then the aggregate store stats, with spilling."""
    lines = [
        f"======== Object references status: virtual time {rt.now():.3f}s ========",
        "Grouping by node...        Sorting by creation...",
    ]
    by_node: dict[str, list] = {}
    for r in rows(rt):
        by_node.setdefault(r["owner_node"], []).append(r)
    for node, refs in by_node.items():

        def count(pred, refs: list = refs) -> str:  # bound now: called only inside this iteration
            hit = [r for r in refs if pred(r)]
            return f"{len(hit)}, ({sum(r['object_size'] for r in hit) / MiB:.1f} MiB)"

        lines += [
            "",
            f"--- Summary for node {node} ---",
            f"{'Mem Used by Objects':<21}{'Local References':<20}{'Pinned':<20}{'Used by task':<20}Spilled",
            f"{_size(sum(r['object_size'] for r in refs if r['where'] == 'IN_MEMORY')):<21}"
            f"{count(lambda r: r['reference_type'] == 'LOCAL_REFERENCE'):<20}"
            f"{count(lambda r: r['where'] == 'IN_MEMORY'):<20}"
            f"{count(lambda r: r['reference_type'] == 'USED_BY_PENDING_TASK'):<20}"
            f"{count(lambda r: r['where'] == 'SPILLED')}",
            "",
            f"--- Object references for node {node} ---",
            f"{'PID':<7}{'Type':<8}{'Call Site':<24}{'Status':<10}{'Size':>12}  {'Where':<11}"
            f"{'Reference Type':<22}Object Ref",
        ]
        for r in refs:
            lines.append(
                f"{r['pid']:<7}{r['type'].title():<8}{r['call_site'][:23]:<24}{r['task_status'][:9]:<10}"
                f"{_size(r['object_size']):>12}  {r['where']:<11}{r['reference_type']:<22}{r['object_id']}"
            )
    lines += ["", "--- Aggregate object store stats across all nodes ---"]
    stats = [s for s in store_stats(rt) if s["alive"]]
    used, cap = sum(s["used"] for s in stats), sum(s["capacity"] for s in stats) or 1
    lines.append(
        f"Plasma memory usage {used / MiB:.0f} MiB, {sum(s['objects'] for s in stats)} objects, "
        f"{100.0 * used / cap:.1f}% full"
    )
    spilled = sum(s["spilled"] for s in stats)
    if spilled or any(s["spilled_total"] for s in stats):
        lines.append(
            f"Spilled {spilled / MiB:.0f} MiB, {sum(s['spilled_objects'] for s in stats)} objects "
            f"({sum(s['spilled_total'] for s in stats) / MiB:.0f} MiB ever)"
        )
    for s in stats:
        copies = f" ({s['copies']} readers' copies)" if s["copies"] else ""
        lines.append(
            f"  {s['node']}: {_size(s['used'])} of {_size(s['capacity'])} ({s['fill_pct']:.1f}% full), "
            f"{s['objects']} in memory{copies}, {s['spilled_objects']} spilled"
        )
    return "\n".join(lines) + "\n"
