"""The cluster's state as a learner reads it: a few tables, and what each record does to them.

The tables (nodes, workers, tasks, actors, objects, placement groups and the exercise's services)
are dicts from a key to its row of text cells. A record's state change (its row in table.py names
one of the functions here) sets the rows it touches; the rows touched since the last
`take_changes()` are that record's changes, which is what a debugger's cursor replays.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# The tables, their columns, in the order a learner is shown them.
COLUMNS: dict[str, tuple[str, ...]] = {
    "nodes": ("node", "state", "note"),
    "workers": ("worker", "node", "state"),
    "tasks": ("call", "state", "attempt", "where"),
    "actors": ("actor", "state", "restarts", "where"),
    "objects": ("object", "state", "copies on readers' nodes"),
    "groups": ("group", "state", "bundles"),
    "services": ("service", "key", "calls so far"),
}
TITLES = {
    "nodes": "Nodes",
    "workers": "Worker processes",
    "tasks": "Tasks",
    "actors": "Actors",
    "objects": "Objects",
    "groups": "Placement groups",
    "services": "The exercise's services",
}

Row = tuple[str, ...]
Change = tuple[str, str, "Row | None"]  # (table, key, the row now, or None: gone from the table)
Fields = Mapping[str, Any]

ATTEMPT = re.compile(r"^(?P<call>.+#\d+)/(?P<n>\d+)$")


def split_attempt(key: str) -> tuple[str, int]:
    """ "clean#2/1" -> ("clean#2", 1); an actor's creation "Tally.__init__#1/0" -> (..., 0)."""
    match = ATTEMPT.match(key)
    if match is None:
        return key, 1
    return match["call"], int(match["n"])


class Tables:
    """The tables, updated record by record; each record's touched rows become its changes."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Row]] = {name: {} for name in COLUMNS}
        self.touched: dict[tuple[str, str], None] = {}
        self.node_ids: dict[str, str] = {}  # id prefix -> node name
        self.actor_where: dict[str, str] = {}
        self.actor_restarts: dict[str, int] = {}
        self.worker_actor: dict[int, str] = {}
        self.calls: dict[tuple[str, str], list[str]] = {}  # (service, key) -> "op by attempt -> outcome"
        self.copies: dict[str, list[str]] = {}
        self.last_fault = ""  # the token of the latest fault record

    def set(self, table: str, key: str, *cells: Any) -> None:
        self.tables[table][key] = tuple("" if c is None else str(c) for c in cells)
        self.touched[(table, key)] = None

    def get(self, table: str, key: str) -> Row | None:
        return self.tables[table].get(key)

    def take_changes(self) -> tuple[Change, ...]:
        out = tuple((t, k, self.tables[t].get(k)) for t, k in self.touched)
        self.touched = {}
        return out

    # -- helpers ---------------------------------------------------------------------------------
    def set_node(self, node: str, state: str, note: str = "") -> None:
        old = self.get("nodes", node)
        self.set("nodes", node, node, state, note or (old[2] if old else ""))

    def set_worker(self, pid: Any, node: str, state: str) -> None:
        self.set("workers", str(pid), str(pid), node, state)

    def worker_node(self, pid: Any) -> str:
        row = self.get("workers", str(pid))
        return row[1] if row else ""

    def task(self, attempt: str, state: str, where: str | None = None) -> None:
        call, n = split_attempt(attempt)
        old = self.get("tasks", call)
        place = where if where is not None else (old[3] if old else "")
        self.set("tasks", call, call, state, n, place)

    def object(self, oid: str, state: str) -> None:
        # miniray logs the copies a read makes (object.copy), not where an object was made or who
        # owns it: the table shows what the records say.
        copies = ", ".join(self.copies.get(oid, [])) or "none"
        self.set("objects", oid, oid, state, copies)

    def release_worker(self, attempt: str) -> None:
        for pid, row in self.tables["workers"].items():
            if row[2] == f"running {attempt}":
                actor = self.worker_actor.get(int(pid)) if pid.isdigit() else None
                self.set_worker(pid, row[1], f"hosts {actor}" if actor else "idle")


# -- each kind's change (table.py names them) ---------------------------------------------------
def node_add(s: Tables, f: Fields) -> None:
    s.node_ids[str(f["id"])] = f["node"]
    s.set_node(f["node"], "alive", resources(f))


def resources(f: Fields) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in dict(f["resources"]).items())


def node_died(s: Tables, f: Fields) -> None:
    s.set_node(f["node"], "dead", f"cause: {f['cause']}")
    for pid, row in list(s.tables["workers"].items()):
        if row[1] == f["node"] and row[2] != "dead":
            s.set_worker(pid, row[1], "dead")
    for oid, held in s.copies.items():
        if f["node"] in held:
            held.remove(f["node"])
            s.object(oid, f"its copy on {f['node']} is gone")


def node_paused(s: Tables, f: Fields) -> None:
    # The fault that froze it is the record just before: the row's note names it.
    s.set_node(f["node"], "paused", s.last_fault)


def node_draining(s: Tables, f: Fields) -> None:
    deadline = f"deadline {f['deadline']:g} s" if "deadline" in f else "no deadline"
    s.set_node(f["node"], "draining", f"{f['reason']}, {deadline}")


def node_alive(s: Tables, f: Fields) -> None:
    s.set_node(f["node"], "alive")


def worker_dead(s: Tables, f: Fields) -> None:
    s.set_worker(f["worker"], f["node"], "dead")


def gcs_died(s: Tables, f: Fields) -> None:
    s.set_node(f["node"], "alive", "GCS down")


def fault(s: Tables, f: Fields) -> None:
    s.last_fault = str(f["fault"])


def submit(s: Tables, f: Fields) -> None:
    call = f"{f['task']}#{f['ordinal']}"
    s.set("tasks", call, call, "submitted", "", "")


def start(s: Tables, f: Fields) -> None:
    where = f"{f['node']}, worker {f['worker']}"
    s.task(f["attempt"], "running", where)
    s.set_worker(f["worker"], f["node"], f"running {f['attempt']}")


def finish(s: Tables, f: Fields) -> None:
    s.task(f["attempt"], "finished")
    s.release_worker(f["attempt"])


def error(s: Tables, f: Fields) -> None:
    s.task(f["attempt"], "raised, will retry" if f["retry"] else "raised: failed")
    s.release_worker(f["attempt"])


def fail(s: Tables, f: Fields) -> None:
    s.task(f["attempt"], "died, will retry" if f["retry"] else "died: failed")
    s.release_worker(f["attempt"])


def cancel(s: Tables, f: Fields) -> None:
    s.task(f["attempt"], "cancelled")


def actor_create(s: Tables, f: Fields) -> None:
    actor = str(f["actor"])
    s.actor_restarts[actor] = 0
    s.set("actors", actor, actor, "PENDING_CREATION", 0, "")


def actor_start(s: Tables, f: Fields) -> None:
    actor = str(f["actor"])
    where = f"{f['node']}, worker {f['worker']}"
    s.actor_where[actor] = where
    s.actor_restarts[actor] = int(f["restart"])
    s.worker_actor[int(f["worker"])] = actor
    old = s.get("actors", actor)
    s.set("actors", actor, actor, old[1] if old else "PENDING_CREATION", f["restart"], where)
    s.set_worker(f["worker"], f["node"], f"hosts {actor}")


def actor_state(s: Tables, f: Fields) -> None:
    actor = str(f["actor"])
    state = str(f["state"])
    where = s.actor_where.get(actor, "") if state != "DEAD" else ""
    s.set("actors", actor, actor, state, s.actor_restarts.get(actor, 0), where)


def object_free(s: Tables, f: Fields) -> None:
    oid = str(f["object"])
    reason = str(f["reason"])
    s.copies.pop(oid, None)
    if s.get("objects", oid) is not None or "lost" in reason:  # one never seen before is bookkeeping
        s.object(oid, "lost" if "lost" in reason else "freed")


def object_copy(s: Tables, f: Fields) -> None:
    oid = str(f["object"])
    node = str(f.get("node", "?"))
    held = s.copies.setdefault(oid, [])
    if node not in held:
        held.append(node)
    s.object(oid, "in store")


def object_evict(s: Tables, f: Fields) -> None:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    held[:] = [n for n in held if n != f["node"]]
    s.object(oid, "in store")


def object_spill(s: Tables, f: Fields) -> None:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    disk = f"{f['node']} (disk)"
    held[:] = [n for n in held if n != f["node"]] + ([disk] if disk not in held else [])
    s.object(oid, "spilled")


def object_restore(s: Tables, f: Fields) -> None:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    held[:] = [n for n in held if n != f"{f['node']} (disk)"] + [str(f["node"])]
    s.object(oid, "in store")


def pg_create(s: Tables, f: Fields) -> None:
    s.set("groups", str(f["pg"]), f["pg"], "PENDING", f"{f['bundles']} ({f['strategy']})")


def pg_state(s: Tables, f: Fields) -> None:
    old = s.get("groups", str(f["pg"]))
    s.set("groups", str(f["pg"]), f["pg"], f["new"], old[2] if old else "")


def detector(verdict: str):  # -> a change: the node's note says the detector's verdict
    def change(s: Tables, f: Fields) -> None:
        old = s.get("nodes", str(f["node"]))
        if old is not None and old[1] != "dead":
            s.set("nodes", old[0], old[0], old[1], f"detector: {verdict}")

    return change


def effect(s: Tables, f: Fields) -> None:
    key = (str(f["service"]), str(f["key"]))
    token = f" token {f['token']}" if f.get("token") else ""
    calls = s.calls.setdefault(key, [])
    calls.append(f"{f['op']} by {f['attempt']}{token} -> {f['outcome']}")
    s.set("services", "/".join(key), key[0], key[1], "; ".join(calls))
