"""A simulated worker process's own copy of the learner state its functions reach.

`Export` is a function or class as the driver exported it: its footprint's slots and their
values at that moment, copied. Ray pickles a remote function at its first `.remote()` in a job
and an actor class at its first `.remote()`, so that is when miniray takes the copy too (a
change the driver makes afterwards reaches no worker). `ProcessSpace` is one process's values:
made from the export the first time the process runs one of its functions, kept while the
process lives (tasks that run one after another on one worker share it, as in Ray), gone with
it (a restarted actor or a new worker starts again from the export).

While a body runs, its process's values are swapped into the slots and the previous ones (the
driver's) are swapped back afterwards; nothing runs in between, so no one else sees them.
"""

from __future__ import annotations

import copy
import sys
import warnings
from typing import Any

from .footprint import MISSING, Footprint, immutable
from .hashing import salted_hash
from .shared_state import SharedStateWarning


def clone(values: list, memo: dict | None = None) -> list:
    """A deep copy that keeps miniray's handles (refs, actor handles) as they are: their classes'
    `__deepcopy__` returns them. A value that cannot be copied (a lock, a generator) is shared,
    with a warning, rather than failing the run."""
    memo = {} if memo is None else memo
    out = []
    for value in values:
        if value is MISSING or immutable(value):
            out.append(value)
            continue
        try:
            try:
                out.append(copy.deepcopy(value, memo))
            except TypeError:  # it holds a module (cloudpickle pickles those by reference): keep them
                memo.update((id(m), m) for m in list(sys.modules.values()) if m is not None)
                out.append(copy.deepcopy(value, memo))
        except Exception as e:
            warnings.warn(
                f"miniray could not give each worker its own copy of a {type(value).__name__} "
                f"({type(e).__name__}: {e}); every simulated worker shares this one.",
                SharedStateWarning,
                stacklevel=2,
            )
            out.append(value)
    return out


class Export:
    """A function or class as exported at its first `.remote()` in a runtime."""

    __slots__ = ("footprint", "values")

    def __init__(self, footprint: Footprint):
        self.footprint = footprint
        self.values = clone([slot.get() for slot in footprint.slots])

    @property
    def empty(self) -> bool:
        return not self.footprint.slots


class ProcessSpace:
    """One simulated worker process's values, by slot (class attributes: one per process; the
    rest: one per export, as each `cloudpickle.dumps` in Ray builds its own globals), and its
    interpreter's salted `hash` (`salt`: `hashing.process_salt`; None: the interpreter's own)."""

    __slots__ = ("values", "salt")

    def __init__(self, salt: int | None = None) -> None:
        self.values: dict[tuple, Any] = {}
        self.salt = salt

    def _hash(self) -> Any:
        """This process's `hash`, made the first time copied code names it (rarely: not per worker)."""
        return MISSING if self.salt is None else salted_hash(self.salt)

    def _keys(self, export: Export) -> list[tuple]:
        return [slot.key if slot.per_process else (id(export), slot.key) for slot in export.footprint.slots]

    def _ensure(self, export: Export, keys: list[tuple]) -> None:
        if all(k in self.values for k in keys):
            return
        fresh = clone(export.values)  # this process's first run of the export: its own copy
        for slot, key, value in zip(export.footprint.slots, keys, fresh):
            if key not in self.values:
                self.values[key] = self._hash() if slot.kind == "hash" else value

    def enter(self, export: Export) -> list:
        """Swap this process's values in; returns what was there, for `leave`."""
        slots = export.footprint.slots
        keys = self._keys(export)
        self._ensure(export, keys)
        saved = [slot.get() for slot in slots]
        values = self.values
        for slot, key in zip(slots, keys):
            slot.set(values[key])
        return saved

    def leave(self, export: Export, saved: list) -> None:
        """Keep what the body left in the slots as this process's, and put `saved` back."""
        values = self.values
        for slot, key, before in zip(export.footprint.slots, self._keys(export), saved):
            values[key] = slot.get()
            slot.set(before)

    def snapshot(self, export: Export) -> list:
        """This process's values now (an attempt's start), for `restore` before a re-run."""
        keys = self._keys(export)
        self._ensure(export, keys)
        return clone([self.values[k] for k in keys])

    def restore(self, export: Export, snapshot: list) -> None:
        for key, value in zip(self._keys(export), clone(snapshot)):
            self.values[key] = value
