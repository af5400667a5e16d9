"""The one table: what each kind of miniray record means to the course, keyed by `sim.Kind`.

Every view of a run reads a record through its row here, never by comparing kind strings:

    says     the sentence a learner reads (a format string over the record's fields, or a
             function of the state tables and the fields)
    change   what it does to the state tables (state.py), or None
    lane     the part of the cluster it concerns, and the lane it is drawn on
    draws    how it is drawn there: the state its row enters from this event (a node, an actor,
             a group), an attempt's bar opening or how it ended, an object copy's arrow, a mark
    site     it is made by a call in the code that runs (a submit, a service call, os._exit), so it
             carries the learner's line
    noise    bookkeeping every run has (an object freed when its last reference goes): left out
             of what a learner reads
    strike   the fault striking (FAULT), or what a fault did at once (OF_FAULT: a node it froze,
             logged right after the fault, whose own line says it)
    final    given its fields, a failure that is final: no retry left, or an actor dead for good

A kind with no row reads as its raw fields and changes nothing; tests/unit/test_reading.py fails
until every kind of miniray/events.py has one. Adding a row: docs/design/contributing.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from miniray.sim import Kind

from . import state
from .state import Fields, Tables

Says = Callable[[Tables, Fields], str]
Change = Callable[[Tables, Fields], None]


class Lane(Enum):
    """What a record concerns; a drawn record's lane row is named by the field in `key`."""

    NODES = "node"
    WORKERS = "worker"
    TASKS = "attempt"
    ACTORS = "actor"
    GROUPS = "pg"
    OBJECTS = "object"
    SERVICES = "service"
    FAULTS = "fault"
    DETECTOR = "detector"
    CLUSTER = "cluster"

    @property
    def key(self) -> str:
        return self.value


class Strike(Enum):
    NO = 0
    FAULT = 1  # the `fault` record: an injected fault strikes
    OF_FAULT = 2  # what the fault just before did at once (a node it froze)


# How a record is drawn on its lane, besides a band state (any other string).
OPENS = "opens"  # an attempt's bar starts
OK, FAILED, ERROR, OPEN = "ok", "failed", "error", "unfinished"  # how a bar ended
COPY = "copy"  # an arrow: a read copied an object to the reader's node
MARK = "mark"  # a mark on the lane's row at this event, with the sentence as its tooltip


@dataclass(frozen=True)
class Row:
    kind: str
    says: str | Says
    change: Change | None = None
    lane: Lane = Lane.CLUSTER
    draws: str | Callable[[Fields], str] | None = None
    site: bool = False
    noise: bool = False
    strike: Strike = Strike.NO
    final: Callable[[Fields], bool] | None = None

    def sentence(self, tables: Tables, fields: Fields) -> str:
        if isinstance(self.says, str):
            return self.says.format_map(fields)
        return self.says(tables, fields)

    def drawn(self, fields: Fields) -> str | None:
        return self.draws(fields) if callable(self.draws) else self.draws

    def is_final(self, fields: Fields) -> bool:
        return self.final is not None and self.final(fields)


TABLE: dict[str, Row] = {}


def row(kind: str, says: str | Says, **columns: object) -> Row:
    """Add (or replace) the row of `kind`: what the table's columns say about it."""
    entry = Row(kind, says, **columns)  # type: ignore[arg-type]
    TABLE[kind] = entry
    _where.cache_clear()
    return entry


@functools.cache
def _where(test: Callable[[Row], bool]) -> frozenset[str]:
    return frozenset(kind for kind, entry in TABLE.items() if test(entry))


def where(test: Callable[[Row], bool]) -> frozenset[str]:
    """The kinds whose rows pass `test`, as a set: a search reads hundreds of runs' records, so
    the views that filter every record ask the table once (`test` is a module-level function)."""
    return _where(test)


def of(kind: str) -> Row:
    """The row of a record's kind; a kind with none reads as its raw fields."""
    found = TABLE.get(kind)
    return found if found is not None else Row(kind, _raw(kind))


def kinds(lane: Lane) -> tuple[str, ...]:
    """The kinds whose records concern `lane` (Lane.GROUPS: every placement-group record)."""
    return tuple(kind for kind, entry in TABLE.items() if entry.lane is lane)


def _raw(kind: str) -> Says:
    return lambda s, f: kind + " " + " ".join(f"{k}={v}" for k, v in f.items())


def _no_retry(f: Fields) -> bool:
    return not f.get("retry")


# -- sentences that need more than the fields ---------------------------------------------------
def _joins(s: Tables, f: Fields) -> str:
    return f"{f['node']} joins the cluster ({state.resources(f)})"


def _frozen(s: Tables, f: Fields) -> str:
    until = f" until {f['until']:g} s" if "until" in f else " for good"
    return f"{f['node']} is frozen{until}"


def _draining(s: Tables, f: Fields) -> str:
    deadline = f", with a deadline at {f['deadline']:g} s" if "deadline" in f else ", with no deadline"
    return (
        f"{f['node']} is drained ({f['reason']}{deadline}): no new work goes there, its running work goes on"
    )


def _removed(s: Tables, f: Fields) -> str:
    return f"{f['node']} is removed {'gracefully' if f['graceful'] else 'abruptly'}"


def _submits(s: Tables, f: Fields) -> str:
    by = "the driver" if s.worker_node(f["owner"]) == "" else f"worker {f['owner']}"
    return f"{by} submits {f['task']}#{f['ordinal']}"


def _starts(s: Tables, f: Fields) -> str:
    fetch = f" after reading spilled arguments for {f['fetch_s']:g} s" if f.get("fetch_s") else ""
    return f"{f['attempt']} starts on {f['node']}, worker {f['worker']}{fetch}"


def _raises(s: Tables, f: Fields) -> str:
    again = "Ray retries it" if f["retry"] else "no retry: the error is its result"
    return f"{f['attempt']} raises {f['error']}; {again}"


def _dies(s: Tables, f: Fields) -> str:
    again = "Ray will run it again" if f["retry"] else "no retries left: it fails"
    return f"{f['attempt']} dies with its worker ({f['cause']}); {again}"


def _creates(s: Tables, f: Fields) -> str:
    named = f" named {f['name']!r}" if f["name"] else ""
    return f"the driver creates actor {f['actor']}{named}"


def _actor_starts(s: Tables, f: Fields) -> str:
    again = f" (restart {f['restart']})" if f["restart"] else ""
    return f"{f['actor']}'s process starts on {f['node']}, worker {f['worker']}{again}"


def _actor_is(s: Tables, f: Fields) -> str:
    cause = f" ({f['cause']})" if f.get("cause") else ""
    return f"{f['actor']} is {f['state']}{cause}"


def _killed(s: Tables, f: Fields) -> str:
    return f"ray.kill({f['actor']}) {'for good' if f['no_restart'] else '(it may restart)'}"


def _freed(s: Tables, f: Fields) -> str:
    return f"object {f['object']} leaves the cluster ({str(f['reason']).replace('_', ' ')})"


def _copied(s: Tables, f: Fields) -> str:
    node = f.get("node", "?")
    return f"object {f['object']} is copied to {node}'s store ({f.get('size', '?')} bytes) for a reader there"


def _detector(verdict: str) -> Says:
    def says(s: Tables, f: Fields) -> str:
        return f"the failure detector finds {f['node']} {verdict} ({f.get('cause', '')})".replace(" ()", "")

    return says


def _calls(s: Tables, f: Fields) -> str:
    token = f" token {f['token']}" if f.get("token") else ""
    return f"{f['attempt']} calls {f['service']}.{f['op']}({f['key']}){token}: {f['outcome']}"


# -- the rows, in miniray/events.py's order -----------------------------------------------------
row(Kind.NODE_ADD, _joins, change=state.node_add, lane=Lane.NODES, draws="alive")
row(Kind.NODE_DIED, "{node} dies ({cause})", change=state.node_died, lane=Lane.NODES, draws="dead")
row(
    Kind.NODE_PAUSED,
    _frozen,
    change=state.node_paused,
    lane=Lane.NODES,
    draws="paused",
    strike=Strike.OF_FAULT,
)
row(
    Kind.NODE_RESUMED,
    "{node} runs again after its pause",
    change=state.node_alive,
    lane=Lane.NODES,
    draws="alive",
)
row(Kind.NODE_DRAINING, _draining, change=state.node_draining, lane=Lane.NODES, draws="draining")
row(
    Kind.NODE_DRAIN_REJECTED,
    "the GCS refuses to drain {node} ({reason}): {message}",
    lane=Lane.NODES,
    draws=MARK,
)
row(Kind.CLUSTER_REMOVE_NODE, _removed, lane=Lane.NODES, site=True)
row(
    Kind.WORKER_DIED,
    "worker {worker} on {node} is gone ({cause})",
    change=state.worker_dead,
    lane=Lane.WORKERS,
)
row(Kind.WORKER_EXIT, "{attempt} ends its worker {worker} on {node}: {reason}", lane=Lane.WORKERS, site=True)
row(Kind.WORKER_SIGNAL, "worker {worker} on {node} gets signal {signal}", lane=Lane.WORKERS, site=True)
row(
    Kind.MEMORY_KILL,
    "the memory monitor kills worker {worker} ({victim}) on {node}: {used_gb} of {capacity_gb} GB used",
    lane=Lane.WORKERS,
)
row(
    Kind.GCS_DIED,
    "the GCS on {node} dies; reconnecting for up to {reconnect_timeout_s} s",
    change=state.gcs_died,
)
row(Kind.GCS_UNREACHABLE, "the driver gives up on the GCS after {after_s} s")
row(Kind.FAULT, "fault strikes: {fault}", change=state.fault, lane=Lane.FAULTS, strike=Strike.FAULT)
row(Kind.TASK_SUBMIT, _submits, change=state.submit, lane=Lane.TASKS, site=True)
row(Kind.TASK_START, _starts, change=state.start, lane=Lane.TASKS, draws=OPENS)
row(Kind.TASK_FINISH, "{attempt} returns on {node}", change=state.finish, lane=Lane.TASKS, draws=OK)
row(Kind.TASK_ERROR, _raises, change=state.error, lane=Lane.TASKS, draws=ERROR, final=_no_retry)
row(Kind.TASK_FAIL, _dies, change=state.fail, lane=Lane.TASKS, draws=FAILED, final=_no_retry)
row(Kind.TASK_RECONSTRUCT, "{task} runs again to rebuild lost object {object}", lane=Lane.TASKS)
row(Kind.TASK_CANCEL, "{attempt} is cancelled ({state})", change=state.cancel, lane=Lane.TASKS, site=True)
row(
    Kind.ACTOR_CREATE,
    _creates,
    change=state.actor_create,
    lane=Lane.ACTORS,
    draws="PENDING_CREATION",
    site=True,
)
row(
    Kind.ACTOR_START,
    _actor_starts,
    change=state.actor_start,
    lane=Lane.ACTORS,
    draws=lambda f: "RESTARTING" if f["restart"] else "ALIVE",
)
row(
    Kind.ACTOR_STATE,
    _actor_is,
    change=state.actor_state,
    lane=Lane.ACTORS,
    draws=lambda f: str(f["state"]),
    final=lambda f: f.get("state") == "DEAD",
)
row(Kind.ACTOR_KILL, _killed, lane=Lane.ACTORS, site=True)
row(
    Kind.ACTOR_STALLED,
    "actor {actor}'s process (worker {worker}) hangs: still ALIVE, its calls never return",
    lane=Lane.ACTORS,
    draws=MARK,
    strike=Strike.OF_FAULT,
)
row(Kind.OBJECT_FREE, _freed, change=state.object_free, lane=Lane.OBJECTS, noise=True)
row(
    Kind.OBJECT_SPILL,
    "object {object} is spilled to {node}'s disk ({size} bytes)",
    change=state.object_spill,
    lane=Lane.OBJECTS,
)
row(
    Kind.OBJECT_RESTORE,
    "object {object} is read back into {node}'s memory",
    change=state.object_restore,
    lane=Lane.OBJECTS,
)
row(Kind.OBJECT_COPY, _copied, change=state.object_copy, lane=Lane.OBJECTS, draws=COPY, site=True)
row(
    Kind.OBJECT_EVICT,
    "{node} drops its copy of object {object} to make room",
    change=state.object_evict,
    lane=Lane.OBJECTS,
)
row(
    Kind.PG_CREATE,
    "placement group {pg} is created ({bundles} bundles, {strategy})",
    change=state.pg_create,
    lane=Lane.GROUPS,
    draws="PENDING",
    site=True,
)
row(
    Kind.PG_STATE,
    "placement group {pg}: {old} -> {new}",
    change=state.pg_state,
    lane=Lane.GROUPS,
    draws=lambda f: str(f["new"]),
)
row(Kind.PG_BUNDLES_LOST, "placement group {pg} loses bundles {bundles} with {node}", lane=Lane.GROUPS)
row(Kind.PG_HOT_LOOP, "the placement queue spins on {groups} (a hot retry loop)", lane=Lane.GROUPS)
row(
    Kind.PG_REQUEUE,
    "placement group {pg} fails attempt {attempt}: the queue policy answers {answer}",
    lane=Lane.GROUPS,
)
row(Kind.PG_VICTIM, "placement group {pg} is released to break a cycle ({released})", lane=Lane.GROUPS)
row(Kind.LIVENESS_ENABLED, "the failure detector starts (every {probe_interval_s} s)", lane=Lane.DETECTOR)
row(Kind.LIVENESS_PROBE_FAILED, "a probe of {node} times out ({failures} of {threshold})", lane=Lane.DETECTOR)
row(Kind.LIVENESS_ALIVE, _detector("alive again"), change=state.detector("alive again"), lane=Lane.DETECTOR)
row(Kind.LIVENESS_SUSPECT, _detector("suspect"), change=state.detector("suspect"), lane=Lane.DETECTOR)
row(Kind.LIVENESS_DEAD, _detector("dead"), change=state.detector("dead"), lane=Lane.DETECTOR)
row(Kind.LIVENESS_ZOMBIE, "{attempt} still runs on {node}, declared dead: a zombie", lane=Lane.DETECTOR)
row(
    Kind.LIVENESS_ZOMBIE_FINISHED,
    "zombie {attempt} ends ({outcome}); its result is dropped",
    lane=Lane.DETECTOR,
)
row(
    Kind.LIVENESS_BLACKLIST,
    "{node} is blacklisted ({failures} failures, {successes} successes)",
    lane=Lane.DETECTOR,
)
row(Kind.EFFECT, _calls, change=state.effect, lane=Lane.SERVICES, site=True)
