"""Each node's object store: what it holds in memory and on disk, and the copies readers leave.

A node's store holds the primary copy of each large object made there (pinned: spilled to the
node's disk when the store is full, never dropped) and a copy of each object a reader on that
node pulled (a get, a wait with fetch_local, a task's argument: dropped first when room is
needed). Reading a spilled object costs size / `object_spilling_read_bytes_per_s` virtual
seconds and moves it back into memory if it fits: the spill cliff. An object is lost only when
no copy is left on a live node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Kind
from .states import ObjectState

if TYPE_CHECKING:  # types only: the object table builds this
    from .objects import ObjectEntry, ObjectTable
    from .runtime import Runtime


class Stores:
    def __init__(self, rt: Runtime, table: ObjectTable):
        self.rt = rt
        self.table = table
        self.spilled_bytes: dict[str, int] = {}  # node name -> bytes ever spilled (Ray's spill counter)
        self.read_from_disk: dict[str, int] = {}  # node name -> bytes ever read back from disk
        # node name -> virtual time its disk is free again: one disk per node, reads take turns
        self.disk_free_at: dict[str, float] = {}

    def admit_primary(self, entry: ObjectEntry, node) -> None:
        """A new object made on `node`: its primary copy, pinned there."""
        entry.locations, entry.primary = [node], node
        self._admit(node, entry.object_id, entry.size)

    def forget(self, entry: ObjectEntry) -> None:
        """The object is freed (or lost everywhere): every copy leaves every store and disk."""
        for node in entry.locations:
            node.store.pop(entry.object_id, None)
            node.spilled.pop(entry.object_id, None)
        entry.locations = []

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
            entry = self.table.entries.get(ref.hex())
            if entry is not None:
                self.copy_to(entry, node)

    def _evict(self, node, need: float) -> int:
        """Drop readers' copies from `node`'s store, least recently made first, until `need`
        bytes are free (or none is left); returns the bytes freed."""
        freed = 0
        for oid in list(node.store):
            if freed >= need:
                break
            entry = self.table.entries.get(oid)
            if entry is None or entry.primary is node:
                continue
            freed += node.store.pop(oid)
            entry.locations = [n for n in entry.locations if n is not node]
            self.rt.emit(Kind.OBJECT_EVICT, object=oid[:12], node=node.name)
        return freed

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
        """Virtual seconds until these objects are read: zero from memory, from disk when the
        node's one disk has read them (size / bandwidth each, after the reads queued before: the
        disk is shared by every reader on the node, so readers in parallel wait their turn).

        A read restores the object into memory when it fits without spilling others (as Ray
        restores on access); under pressure it stays on disk and every read pays again.
        """
        now = self.rt.now()
        done, seen = now, set()
        bandwidth = float(self.rt.config["object_spilling_read_bytes_per_s"])
        for ref in refs:
            entry = self.table.entries.get(ref if isinstance(ref, str) else ref.hex())
            if (
                entry is None
                or entry.object_id in seen
                or entry.state != ObjectState.READY
                or not self.spilled(entry)
            ):
                continue
            seen.add(entry.object_id)
            node = next(n for n in entry.locations if n.alive)
            start = max(now, self.disk_free_at.get(node.name, now))
            finish = self.disk_free_at[node.name] = start + entry.size / bandwidth
            done = max(done, finish)
            self.read_from_disk[node.name] = self.read_from_disk.get(node.name, 0) + entry.size
            if sum(node.store.values()) + entry.size <= self.capacity(node):
                node.spilled.pop(entry.object_id, None)
                node.store[entry.object_id] = entry.size
                self.rt.emit(
                    Kind.OBJECT_RESTORE, object=entry.object_id[:12], node=node.name, size=entry.size
                )
        return done - now

    def drop_node(self, node) -> None:
        """A node died: its store's copies are gone (reconstruction happens when someone asks)."""
        for oid in list(node.store) + list(node.spilled):  # spilled to local disk: gone with the node
            entry = self.table.entries.get(oid)
            if entry is not None:
                entry.locations = [n for n in entry.locations if n is not node]
        node.store.clear()
        node.spilled.clear()
