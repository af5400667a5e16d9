"""Each simulated worker process's own memory: the learner state Ray would copy into it.

- `footprint`: which slots (globals, closure cells, class and function attributes) a function
  reaches, in the modules copied by value;
- `space`: the copy taken at export (`Export`) and each process's own values (`ProcessSpace`),
  swapped in while one of its bodies runs;
- `shared_state`: the state that stays shared (other modules, `os.environ`, files) and the
  warning for writing it from a task;
- `hashing`: each process's own salted `hash()` of str and bytes (`process_salt` of the run's
  seed and the pid), which the name `hash` in copied code reads while one of its bodies runs.

`Exports` is the per-runtime table: a function's or class's export, made at its first
`.remote()` in the runtime, as Ray exports it once per job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .footprint import MISSING, Footprint, Slot, footprint, is_handle
from .hashing import process_salt, salted_hash
from .shared_state import SharedStateWarning, warn_file_write, warn_writes
from .space import Export, ProcessSpace

__all__ = [
    "MISSING",
    "Slot",
    "Export",
    "Exports",
    "Footprint",
    "ProcessSpace",
    "SharedStateWarning",
    "footprint",
    "is_handle",
    "process_salt",
    "salted_hash",
    "warn_file_write",
    "warn_writes",
]


class Exports:
    """One runtime's exports, by the function or class object they were made from."""

    def __init__(self, by_value: Callable[[str], bool], library: Callable[[str], bool]):
        self.by_value = by_value
        self.library = library
        self._made: dict[int, tuple[Any, Export | None]] = {}  # id -> (object kept alive, export)

    def of(self, target: Any) -> Export | None:
        """The export of `target`, made now if this is its first `.remote()`; None when it
        reaches no learner state (nothing to copy, nothing to swap)."""
        found = self._made.get(id(target))
        if found is not None and found[0] is target:
            return found[1]
        reach = footprint(target, self.by_value, self.library)
        warn_writes(reach.functions, self.by_value)
        export = Export(reach) if reach.slots else None
        self._made[id(target)] = (target, export)
        return export
