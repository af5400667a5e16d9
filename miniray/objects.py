"""Objects: refs, their owners, where copies live, reference counts, and what `get` finds.

An object is either inlined in its owner's memory (small task returns, as Ray does below
100 KiB) or held in one node's object store (large returns, and everything from `put`). A copy
in a dead node's store is gone; an object whose owner died is gone for good (OwnerDiedError);
a lost object with lineage can be rebuilt by re-running its task (tasks.reconstruct).

Each node's store has a capacity (`Node.object_store_memory`). Creating an object that would
take the store past it first spills the oldest objects to the node's local disk (Ray spills
primary copies the same way). A spilled object is still there, but reading it costs
size / `object_spilling_read_bytes_per_s` virtual seconds (`fetch_cost`), and it moves back into
memory only if it fits without spilling anything else. So nothing degrades until the store is
full, and then a whole class of reads falls off the zero-copy path at once: the spill cliff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import exceptions as exc
from .copying import SCALARS, Frozen, freeze, scalar_size, shared
from .events import Kind
from .states import ObjectState
from .waitable import Event

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .runtime import Runtime

INLINE_LIMIT = 100 * 1024  # Ray's max_direct_call_object_size


@shared  # a handle: frozen values and copied worker memory keep it, never copy it
class ObjectRef:
    """A handle to an object in the cluster. Python's own reference counting drives Ray's."""

    __slots__ = ("_id", "_table", "__weakref__")

    def __init__(self, object_id: str, table: ObjectTable):
        self._id = object_id
        self._table = table
        table.incref(object_id)

    def hex(self) -> str:
        return self._id

    def __await__(self):
        """`await ref` in asyncio code (Ray's examples): the value, fetched as `get` does."""
        # Imported here, not at the top: `waiting` imports this module (it waits on ObjectRefs).
        from .waiting import get

        return get(self._table.rt, [self], None)[0]
        yield  # a generator, so asyncio can await it; it never suspends

    def binary(self) -> bytes:
        return bytes.fromhex(self._id)

    def task_id(self) -> str:
        entry = self._table.entries.get(self._id)
        return entry.task.task_id if entry is not None and entry.task is not None else ""

    def __repr__(self) -> str:
        return f"ObjectRef({self._id})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ObjectRef) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)

    def __del__(self) -> None:
        try:
            self._table.decref(self._id)
        except Exception:  # interpreter shutdown: the table may already be gone
            pass

    def __reduce__(self):
        return (_rebuild_ref, (self._id, self._table))

    def __bool__(self) -> bool:
        return True

    def __iter__(self):
        raise TypeError(
            "An ObjectRef is not iterable. Call miniray.get(ref) to fetch the value "
            "(for several returns, use @miniray.remote(num_returns=N))."
        )


def _rebuild_ref(object_id: str, table: ObjectTable) -> ObjectRef:
    return ObjectRef(object_id, table)


class ObjectEntry:
    __slots__ = (
        "object_id",
        "owner",
        "task",
        "index",
        "state",
        "value",
        "error",
        "size",
        "inlined",
        "locations",
        "primary",
        "changed",
        "refs",
        "freed",
    )

    def __init__(self, object_id: str, owner, task, index: int):
        self.object_id = object_id
        self.owner = owner  # cluster.Worker
        self.task = task  # the TaskSpec that produces it (its lineage), or None for put
        self.index = index
        self.state = ObjectState.PENDING
        # Serialized once (Frozen), every reader thawing its own copy; a number or string as is.
        self.value: Any = None
        self.error: BaseException | None = None
        self.size = 0
        self.inlined = False
        self.locations: list = []  # nodes whose store holds a copy: the primary first, then readers'
        self.primary = None  # the node it was created on: its copy is pinned (spilled, not evicted)
        # Happens at the object's next change (settled, failed, owner died); each change replaces it.
        self.changed = Event()
        self.refs = 0
        self.freed = False


def fresh_error(error: BaseException) -> BaseException:
    """A copy for one reader, as Ray deserializes a new exception per get. Raising the stored
    instance would attach the reader's frames (and the refs in them) to the object table, so an
    errored object could never be freed."""
    cls = type(error)
    try:
        copy = cls.__new__(cls)
        copy.__dict__.update(error.__dict__)
        copy.args = error.args
    except Exception:  # an exception type that can't be copied this way: share it
        return error
    copy.__cause__, copy.__suppress_context__ = error.__cause__, error.__suppress_context__
    return copy


class ObjectTable:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.entries: dict[str, ObjectEntry] = {}
        self.spilled_bytes: dict[str, int] = {}  # node name -> bytes ever spilled (Ray's spill counter)
        self.read_from_disk: dict[str, int] = {}  # node name -> bytes ever read back from disk

    # -- reference counting -------------------------------------------------------------
    def incref(self, object_id: str) -> None:
        entry = self.entries.get(object_id)
        if entry is not None:
            entry.refs += 1

    def decref(self, object_id: str) -> None:
        entry = self.entries.get(object_id)
        if entry is None:
            return
        entry.refs -= 1
        if entry.refs <= 0:
            self.free(entry, reason="out_of_scope")

    def free(self, entry: ObjectEntry, reason: str) -> None:
        if entry.freed:
            return
        entry.freed = True
        for node in entry.locations:
            node.store.pop(entry.object_id, None)
            node.spilled.pop(entry.object_id, None)
        entry.locations = []
        entry.value = None
        self.entries.pop(entry.object_id, None)
        if self.rt.alive:
            self.rt.emit(Kind.OBJECT_FREE, object=entry.object_id[:12], reason=reason)
        if entry.task is not None:
            self.rt.tasks.release_lineage(entry.task)

    # -- creation and completion --------------------------------------------------------
    def create(self, owner, task=None, index: int = 0) -> ObjectRef:
        oid = self.rt.ids.new("object")
        entry = ObjectEntry(oid, owner, task, index)
        self.entries[oid] = entry
        owner.owned.append(oid)
        return ObjectRef(oid, self)

    def put(self, value: Any, owner) -> ObjectRef:
        """`ray.put`: a new object owned by `owner`, always in its node's store (as Ray does)."""
        ref = self.create(owner)
        self.store(self.entries[ref.hex()], value, owner.node, force_plasma=True)
        return ref

    def store(self, entry: ObjectEntry, value: Any, node, force_plasma: bool = False) -> None:
        """Make `value` the object's value: inlined at the owner if small, else in `node`'s store."""
        if entry.freed:
            return
        if type(value) in SCALARS:  # nothing a reader could change: kept as it is, sized as pickled
            entry.value = value
            size = entry.size = scalar_size(value)
        else:
            frozen = value if type(value) is Frozen else freeze(value)
            entry.value = frozen
            size = entry.size = frozen.size
        entry.error = None
        entry.state = ObjectState.READY
        if size < INLINE_LIMIT and not force_plasma:
            entry.inlined = True
            entry.locations = []
        else:
            entry.inlined = False
            entry.locations, entry.primary = [node], node
            self._admit(node, entry.object_id, size)
        self._wake(entry)

    # -- copies where readers are ---------------------------------------------------------
    def copy_to(self, entry: ObjectEntry, node) -> None:
        """A reader on `node` (a `get`, a task's argument) pulled the object: as in Ray, a copy
        stays in that node's store, so the object outlives its primary's node. A copy is not
        pinned: when the store needs room it is dropped (evicted), never spilled."""
        if (
            entry.freed
            or entry.inlined
            or entry.state != ObjectState.READY
            or not node.alive
            or node in entry.locations
            or not any(n.alive for n in entry.locations)
        ):
            return
        size, cap = entry.size, self.capacity(node)
        used = sum(node.store.values())
        if used + size > cap:
            used -= self._evict(node, used + size - cap)
        if used + size > cap:  # no room even without other copies: read from afar, keep nothing
            return
        node.store[entry.object_id] = size
        entry.locations.append(node)
        self.rt.emit(Kind.OBJECT_COPY, object=entry.object_id[:12], node=node.name, size=size)

    def copy_args(self, refs, node) -> None:
        """A task about to run on `node` pulled its object arguments there."""
        for ref in refs:
            entry = self.entries.get(ref.hex())
            if entry is not None:
                self.copy_to(entry, node)

    def _evict(self, node, need: float) -> int:
        """Drop readers' copies from `node`'s store, least recently made first, until `need`
        bytes are free (or none is left); returns the bytes freed."""
        freed = 0
        for oid in list(node.store):
            if freed >= need:
                break
            entry = self.entries.get(oid)
            if entry is None or entry.primary is node:
                continue
            freed += node.store.pop(oid)
            entry.locations = [n for n in entry.locations if n is not node]
            self.rt.emit(Kind.OBJECT_EVICT, object=oid[:12], node=node.name)
        return freed

    # -- capacity and spilling ------------------------------------------------------------
    def capacity(self, node) -> float:
        return node.object_store_memory * self.rt.config["object_spilling_threshold"]

    def _admit(self, node, object_id: str, size: int) -> None:
        """Put a new copy in `node`'s memory, spilling the oldest copies first if it would not fit."""
        cap = self.capacity(node)
        used = sum(node.store.values())
        if used + size > cap:  # readers' copies go first: the primaries stay somewhere else
            used -= self._evict(node, used + size - cap)
        if used + size > cap:
            for oid in list(node.store):  # insertion order: the least recently created or read first
                if used + size <= cap:
                    break
                used -= node.store[oid]
                self._spill(node, oid, node.store.pop(oid))
        if used + size > cap:  # larger than what is free even with everything spilled: straight to disk
            self._spill(node, object_id, size, fallback=True)
            return
        node.store[object_id] = size

    def _spill(self, node, object_id: str, size: int, fallback: bool = False) -> None:
        node.spilled[object_id] = size
        self.spilled_bytes[node.name] = self.spilled_bytes.get(node.name, 0) + size
        fields = {"fallback": True} if fallback else {}
        self.rt.emit(Kind.OBJECT_SPILL, object=object_id[:12], node=node.name, size=size, **fields)

    def spilled(self, entry: ObjectEntry) -> bool:
        """True when the only live copies are on disk (reading it pays the disk)."""
        live = [n for n in entry.locations if n.alive]
        return bool(live) and not entry.inlined and all(entry.object_id not in n.store for n in live)

    def fetch_cost(self, refs) -> float:
        """Virtual seconds to read these objects: zero from memory, size / bandwidth from disk.

        A read restores the object into memory when it fits without spilling others (as Ray
        restores on access); under pressure it stays on disk and every read pays again.
        """
        seconds, seen = 0.0, set()
        bandwidth = float(self.rt.config["object_spilling_read_bytes_per_s"])
        for ref in refs:
            entry = self.entries.get(ref.hex() if isinstance(ref, ObjectRef) else ref)
            if (
                entry is None
                or entry.object_id in seen
                or entry.state != ObjectState.READY
                or not self.spilled(entry)
            ):
                continue
            seen.add(entry.object_id)
            seconds += entry.size / bandwidth
            node = next(n for n in entry.locations if n.alive)
            self.read_from_disk[node.name] = self.read_from_disk.get(node.name, 0) + entry.size
            if sum(node.store.values()) + entry.size <= self.capacity(node):
                node.spilled.pop(entry.object_id, None)
                node.store[entry.object_id] = entry.size
                self.rt.emit(
                    Kind.OBJECT_RESTORE, object=entry.object_id[:12], node=node.name, size=entry.size
                )
        return seconds

    def fail(self, entry: ObjectEntry, error: BaseException) -> None:
        if entry.freed:
            return
        entry.state = ObjectState.ERROR
        entry.error = error
        entry.value = None
        self._wake(entry)

    def _wake(self, entry: ObjectEntry) -> None:
        # Waiters that find it still pending wait on the next change, so the event is new first.
        changed, entry.changed = entry.changed, Event()
        changed.succeed(entry)

    def settled(self, object_id: str) -> Event:
        """An event that happens, with `resolve`'s ("value", v) or ("error", e), once the object settles."""
        done = Event()
        _Settle(self, object_id, done)()
        return done

    # -- availability ---------------------------------------------------------------------
    def available(self, entry: ObjectEntry) -> bool:
        if entry.state != ObjectState.READY or not entry.owner.alive:
            return False
        return entry.inlined or any(n.alive for n in entry.locations)

    def resolve(self, entry: ObjectEntry) -> tuple[str, Any] | None:
        """("value", frozen) or ("error", e) if settled now; None if pending (rebuilding if it
        must). The value comes frozen (miniray/copying.py): the reader thaws its own copy.

        A caller that gets None waits on `entry.changed` and calls again when it happens.
        """
        if entry.freed:
            return ("error", exc.ObjectFreedError(entry.object_id))
        if not entry.owner.alive:
            return ("error", exc.OwnerDiedError(entry.object_id, owner_address=entry.owner.worker_id))
        if entry.state == ObjectState.ERROR and entry.error is not None:
            return ("error", fresh_error(entry.error))
        if entry.state == ObjectState.PENDING:
            return None
        if entry.inlined or any(n.alive for n in entry.locations):
            return ("value", entry.value)
        # Every copy is gone but the owner lives: lineage reconstruction, if the task allows it.
        entry.locations = []
        self.rt.tasks.reconstruct(entry)
        if entry.state == ObjectState.ERROR:
            return ("error", entry.error)
        return None

    def drop_node(self, node) -> None:
        """A node died: its store's copies are gone (reconstruction happens when someone asks)."""
        for oid in list(node.store) + list(node.spilled):  # spilled to local disk: gone with the node
            entry = self.entries.get(oid)
            if entry is not None:
                entry.locations = [n for n in entry.locations if n is not node]
        node.store.clear()
        node.spilled.clear()

    def owner_died(self, worker) -> None:
        """Everything the worker owned is unreachable now; wake whoever waits on it."""
        for oid in worker.owned:
            entry = self.entries.get(oid)
            if entry is not None and entry.changed.callbacks:
                self._wake(entry)


class _Settle:
    """Re-checks an object at each change until it settles. A callable object rather than a closure
    that registers itself: that would be a reference cycle keeping the settled value (and any refs
    inside it) alive until the garbage collector runs, so frees would happen at GC-dependent times."""

    __slots__ = ("table", "object_id", "done")

    def __init__(self, table: ObjectTable, object_id: str, done: Event):
        self.table, self.object_id, self.done = table, object_id, done

    def __call__(self, _changed: Event | None = None) -> None:
        entry = self.table.entries.get(self.object_id)
        if entry is None:
            self.done.succeed(("error", exc.ObjectFreedError(self.object_id)))
            return
        got = self.table.resolve(entry)
        if got is None:
            entry.changed.add(self)
            return
        self.done.succeed(got)
