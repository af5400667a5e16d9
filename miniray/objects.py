"""Objects: refs, their owners, reference counts, and what `get` finds.

An object is either inlined in its owner's memory (small task returns, as Ray does below
100 KiB) or held in object stores (large returns, and everything from `put`): the store of the
node that made it, and of every node that read it since (miniray/stores.py keeps the stores,
their disks and the copies). An object whose copies are all gone is lost; an object whose owner
died is gone for good (OwnerDiedError); a lost object with lineage can be rebuilt by re-running
its task (tasks.reconstruct).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import exceptions as exc
from .copying import SCALARS, Frozen, freeze, scalar_size, shared
from .events import Kind
from .states import ObjectState
from .stores import Stores
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
        read = self._table.reader
        if read is None:
            raise RuntimeError(
                "this runtime reads no objects for `await`: make it with miniray.init or a Cluster"
            )
        return read(self._table.rt, [self], None)[0]
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
        self.stores = Stores(rt, self)  # each node's store and disk (miniray/stores.py)
        # How `await ref` reads a value: `waiting.get`, which stands on this module (it waits on
        # refs), handed in by what assembles the runtime (session.new_runtime).
        self.reader: Callable[[Runtime, list[ObjectRef], float | None], list] | None = None

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
        self.stores.forget(entry)
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
            self.stores.admit_primary(entry, node)
        self._wake(entry)

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
