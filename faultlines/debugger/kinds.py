"""What each kind of miniray record does to the debugger's tables, and says in words.

One handler per kind (the kinds are miniray/events.py's catalogue); a kind with no handler is
shown as its raw fields and changes nothing. Used by model.fold, one record at a time. Over 400
lines because the catalogue has 40 kinds, each a few lines here: split by kind, they would only
be harder to check against the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from miniray.sim import Kind

# The tables, their columns, in the order the debugger shows them.
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

    # -- one record --------------------------------------------------------------------------------
    def on(self, kind: str, f: Mapping[str, Any]) -> str:
        """Apply one record; return what happened in words."""
        handler = _HANDLERS.get(kind)
        if handler is None:
            return kind + " " + " ".join(f"{k}={v}" for k, v in f.items())
        return handler(self, f)


def _node_add(s: Tables, f: Mapping[str, Any]) -> str:
    s.node_ids[str(f["id"])] = f["node"]
    resources = ", ".join(f"{k} {v:g}" for k, v in dict(f["resources"]).items())
    s.set_node(f["node"], "alive", resources)
    return f"{f['node']} joins the cluster ({resources})"


def _node_died(s: Tables, f: Mapping[str, Any]) -> str:
    s.set_node(f["node"], "dead", f"cause: {f['cause']}")
    for pid, row in list(s.tables["workers"].items()):
        if row[1] == f["node"] and row[2] != "dead":
            s.set_worker(pid, row[1], "dead")
    for oid, held in s.copies.items():
        if f["node"] in held:
            held.remove(f["node"])
            s.object(oid, f"its copy on {f['node']} is gone")
    return f"{f['node']} dies ({f['cause']})"


def _node_resumed(s: Tables, f: Mapping[str, Any]) -> str:
    s.set_node(f["node"], "alive")
    return f"{f['node']} runs again after its pause"


def _remove_node(s: Tables, f: Mapping[str, Any]) -> str:
    how = "gracefully" if f["graceful"] else "abruptly"
    return f"{f['node']} is removed {how}"


def _worker_died(s: Tables, f: Mapping[str, Any]) -> str:
    s.set_worker(f["worker"], f["node"], "dead")
    return f"worker {f['worker']} on {f['node']} is gone ({f['cause']})"


def _worker_exit(s: Tables, f: Mapping[str, Any]) -> str:
    return f"{f['attempt']} ends its worker {f['worker']} on {f['node']}: {f['reason']}"


def _worker_signal(s: Tables, f: Mapping[str, Any]) -> str:
    return f"worker {f['worker']} on {f['node']} gets signal {f['signal']}"


def _memory_kill(s: Tables, f: Mapping[str, Any]) -> str:
    return (
        f"the memory monitor kills worker {f['worker']} ({f['victim']}) on {f['node']}: "
        f"{f['used_gb']} of {f['capacity_gb']} GB used"
    )


def _gcs_died(s: Tables, f: Mapping[str, Any]) -> str:
    s.set_node(f["node"], "alive", "GCS down")
    return f"the GCS on {f['node']} dies; reconnecting for up to {f['reconnect_timeout_s']} s"


def _gcs_unreachable(s: Tables, f: Mapping[str, Any]) -> str:
    return f"the driver gives up on the GCS after {f['after_s']} s"


def _fault(s: Tables, f: Mapping[str, Any]) -> str:
    s.last_fault = str(f["fault"])
    return f"fault strikes: {s.last_fault}"


def _node_paused(s: Tables, f: Mapping[str, Any]) -> str:
    # The fault that froze it is the record just before: the row's note names it.
    s.set_node(f["node"], "paused", s.last_fault)
    until = f" until {f['until']:g} s" if "until" in f else " for good"
    return f"{f['node']} is frozen{until}"


def _submit(s: Tables, f: Mapping[str, Any]) -> str:
    call = f"{f['task']}#{f['ordinal']}"
    s.set("tasks", call, call, "submitted", "", "")
    by = "the driver" if s.worker_node(f["owner"]) == "" else f"worker {f['owner']}"
    return f"{by} submits {call}"


def _start(s: Tables, f: Mapping[str, Any]) -> str:
    where = f"{f['node']}, worker {f['worker']}"
    s.task(f["attempt"], "running", where)
    s.set_worker(f["worker"], f["node"], f"running {f['attempt']}")
    fetch = f" after reading spilled arguments for {f['fetch_s']:g} s" if f.get("fetch_s") else ""
    return f"{f['attempt']} starts on {where}{fetch}"


def _release_worker(s: Tables, attempt: str) -> None:
    for pid, row in s.tables["workers"].items():
        if row[2] == f"running {attempt}":
            actor = s.worker_actor.get(int(pid)) if pid.isdigit() else None
            s.set_worker(pid, row[1], f"hosts {actor}" if actor else "idle")


def _finish(s: Tables, f: Mapping[str, Any]) -> str:
    s.task(f["attempt"], "finished")
    _release_worker(s, f["attempt"])
    return f"{f['attempt']} returns on {f['node']}"


def _error(s: Tables, f: Mapping[str, Any]) -> str:
    s.task(f["attempt"], "raised, will retry" if f["retry"] else "raised: failed")
    _release_worker(s, f["attempt"])
    again = "Ray retries it" if f["retry"] else "no retry: the error is its result"
    return f"{f['attempt']} raises {f['error']}; {again}"


def _fail(s: Tables, f: Mapping[str, Any]) -> str:
    s.task(f["attempt"], "died, will retry" if f["retry"] else "died: failed")
    _release_worker(s, f["attempt"])
    again = "Ray will run it again" if f["retry"] else "no retries left: it fails"
    return f"{f['attempt']} dies with its worker ({f['cause']}); {again}"


def _reconstruct(s: Tables, f: Mapping[str, Any]) -> str:
    return f"{f['task']} runs again to rebuild lost object {f['object']}"


def _cancel(s: Tables, f: Mapping[str, Any]) -> str:
    s.task(f["attempt"], "cancelled")
    return f"{f['attempt']} is cancelled ({f['state']})"


def _actor_create(s: Tables, f: Mapping[str, Any]) -> str:
    actor = str(f["actor"])
    s.actor_restarts[actor] = 0
    s.set("actors", actor, actor, "PENDING_CREATION", 0, "")
    named = f" named {f['name']!r}" if f["name"] else ""
    return f"the driver creates actor {actor}{named}"


def _actor_start(s: Tables, f: Mapping[str, Any]) -> str:
    actor = str(f["actor"])
    where = f"{f['node']}, worker {f['worker']}"
    s.actor_where[actor] = where
    s.actor_restarts[actor] = int(f["restart"])
    s.worker_actor[int(f["worker"])] = actor
    old = s.get("actors", actor)
    s.set("actors", actor, actor, old[1] if old else "PENDING_CREATION", f["restart"], where)
    s.set_worker(f["worker"], f["node"], f"hosts {actor}")
    again = f" (restart {f['restart']})" if f["restart"] else ""
    return f"{actor}'s process starts on {where}{again}"


def _actor_state(s: Tables, f: Mapping[str, Any]) -> str:
    actor = str(f["actor"])
    state = str(f["state"])
    where = s.actor_where.get(actor, "") if state != "DEAD" else ""
    s.set("actors", actor, actor, state, s.actor_restarts.get(actor, 0), where)
    cause = f" ({f['cause']})" if f.get("cause") else ""
    return f"{actor} is {state}{cause}"


def _actor_kill(s: Tables, f: Mapping[str, Any]) -> str:
    how = "for good" if f["no_restart"] else "(it may restart)"
    return f"ray.kill({f['actor']}) {how}"


def _object_free(s: Tables, f: Mapping[str, Any]) -> str:
    oid = str(f["object"])
    reason = str(f["reason"])
    s.copies.pop(oid, None)
    if s.get("objects", oid) is not None or "lost" in reason:  # one never seen before is bookkeeping
        s.object(oid, "lost" if "lost" in reason else "freed")
    return f"object {oid} leaves the cluster ({reason.replace('_', ' ')})"


def _object_copy(s: Tables, f: Mapping[str, Any]) -> str:
    oid = str(f["object"])
    node = str(f.get("node", "?"))
    held = s.copies.setdefault(oid, [])
    if node not in held:
        held.append(node)
    s.object(oid, "in store")
    return f"object {oid} is copied to {node}'s store ({f.get('size', '?')} bytes) for a reader there"


def _object_evict(s: Tables, f: Mapping[str, Any]) -> str:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    held[:] = [n for n in held if n != f["node"]]
    s.object(oid, "in store")
    return f"{f['node']} drops its copy of object {oid} to make room"


def _object_spill(s: Tables, f: Mapping[str, Any]) -> str:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    disk = f"{f['node']} (disk)"
    held[:] = [n for n in held if n != f["node"]] + ([disk] if disk not in held else [])
    s.object(oid, "spilled")
    return f"object {oid} is spilled to {f['node']}'s disk ({f['size']} bytes)"


def _object_restore(s: Tables, f: Mapping[str, Any]) -> str:
    oid = str(f["object"])
    held = s.copies.setdefault(oid, [])
    held[:] = [n for n in held if n != f"{f['node']} (disk)"] + [str(f["node"])]
    s.object(oid, "in store")
    return f"object {oid} is read back into {f['node']}'s memory"


def _pg_create(s: Tables, f: Mapping[str, Any]) -> str:
    s.set("groups", str(f["pg"]), f["pg"], "PENDING", f"{f['bundles']} ({f['strategy']})")
    return f"placement group {f['pg']} is created ({f['bundles']} bundles, {f['strategy']})"


def _pg_state(s: Tables, f: Mapping[str, Any]) -> str:
    old = s.get("groups", str(f["pg"]))
    s.set("groups", str(f["pg"]), f["pg"], f["new"], old[2] if old else "")
    return f"placement group {f['pg']}: {f['old']} -> {f['new']}"


def _said(sentence: str) -> Callable[[Tables, Mapping[str, Any]], str]:
    """A record that changes no table: its sentence, its fields put in."""
    return lambda s, f: sentence.format_map(f)


def _liveness(verdict: str) -> Callable[[Tables, Mapping[str, Any]], str]:
    def handle(s: Tables, f: Mapping[str, Any]) -> str:
        old = s.get("nodes", str(f["node"]))
        if old is not None and old[1] != "dead":
            s.set("nodes", old[0], old[0], old[1], f"detector: {verdict}")
        return f"the failure detector finds {f['node']} {verdict} ({f.get('cause', '')})".replace(" ()", "")

    return handle


def _effect(s: Tables, f: Mapping[str, Any]) -> str:
    key = (str(f["service"]), str(f["key"]))
    token = f" token {f['token']}" if f.get("token") else ""
    note = f"{f['op']} by {f['attempt']}{token} -> {f['outcome']}"
    calls = s.calls.setdefault(key, [])
    calls.append(note)
    s.set("services", "/".join(key), key[0], key[1], "; ".join(calls))
    return f"{f['attempt']} calls {f['service']}.{f['op']}({f['key']}){token}: {f['outcome']}"


_HANDLERS: dict[str, Callable[[Tables, Mapping[str, Any]], str]] = {
    "node.add": _node_add,
    "node.died": _node_died,
    Kind.NODE_PAUSED: _node_paused,
    "node.resumed": _node_resumed,
    "cluster.remove_node": _remove_node,
    "worker.died": _worker_died,
    "worker.exit": _worker_exit,
    "worker.signal": _worker_signal,
    "memory.kill": _memory_kill,
    "gcs.died": _gcs_died,
    "gcs.unreachable": _gcs_unreachable,
    "fault": _fault,
    "task.submit": _submit,
    "task.start": _start,
    "task.finish": _finish,
    "task.error": _error,
    "task.fail": _fail,
    "task.reconstruct": _reconstruct,
    "task.cancel": _cancel,
    "actor.create": _actor_create,
    "actor.start": _actor_start,
    "actor.state": _actor_state,
    "actor.kill": _actor_kill,
    "object.free": _object_free,
    "object.copy": _object_copy,
    "object.evict": _object_evict,
    "object.spill": _object_spill,
    "object.restore": _object_restore,
    "pg.create": _pg_create,
    "pg.state": _pg_state,
    "pg.bundles_lost": _said("placement group {pg} loses bundles {bundles} with {node}"),
    "pg.hot_loop": _said("the placement queue spins on {groups} (a hot retry loop)"),
    "pg.victim": _said("placement group {pg} is released to break a cycle ({released})"),
    "liveness.enabled": _said("the failure detector starts (every {probe_interval_s} s)"),
    "liveness.probe_failed": _said("a probe of {node} times out ({failures} of {threshold})"),
    "liveness.alive": _liveness("alive again"),
    "liveness.suspect": _liveness("suspect"),
    "liveness.dead": _liveness("dead"),
    "liveness.zombie": _said("{attempt} still runs on {node}, declared dead: a zombie"),
    "liveness.zombie_finished": _said("zombie {attempt} ends ({outcome}); its result is dropped"),
    "liveness.blacklist": _said("{node} is blacklisted ({failures} failures, {successes} successes)"),
    "effect": _effect,
}
