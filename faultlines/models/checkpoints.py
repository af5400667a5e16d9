"""A checkpoint store that can read back corrupt: a course model, not part of Ray or miniray.

It stands in for durable storage (S3, a shared filesystem): it outlives every node and actor.
Saves are keyed by step, so a repeated save (a retried call, a replayed body) is a no-op. The
fault `corrupt(step)` makes one checkpoint read back damaged, as a torn write or bit rot would;
its stored checksum still describes what was meant to be written, so a reader that verifies it
can tell. Ray Train's `Checkpoint` is a directory and does no such verification for you.

Actors look a store up by name (`CheckpointStore.named`), because an actor's constructor
arguments are copied (pickled) like any Ray argument: a store passed by value would be a
private copy. In real Ray the name would be a bucket path; in miniray, one process, it is a
registry entry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

_REGISTRY: dict[str, CheckpointStore] = {}


def digest(state: dict) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class Read:
    step: int
    ok: bool
    why: str


@dataclass
class CheckpointStore:
    name: str
    saved: dict[int, tuple[str, str]] = field(default_factory=dict)  # step -> (payload, checksum)
    damaged: set[int] = field(default_factory=set)
    reads: list[Read] = field(default_factory=list)

    @classmethod
    def create(cls, name: str) -> CheckpointStore:
        """A fresh, empty store under `name` (replacing any earlier one)."""
        store = cls(name)
        _REGISTRY[name] = store
        return store

    @classmethod
    def named(cls, name: str) -> CheckpointStore:
        if name not in _REGISTRY:
            raise KeyError(f"no checkpoint store named {name!r}; create it with CheckpointStore.create")
        return _REGISTRY[name]

    def save(self, step: int, state: dict) -> None:
        if step not in self.saved:
            self.saved[step] = (json.dumps(state, sort_keys=True), digest(state))

    def corrupt(self, step: int) -> None:
        """The fault: this checkpoint reads back damaged from now on."""
        if step not in self.saved:
            raise KeyError(f"no checkpoint at step {step} to corrupt (saved: {sorted(self.saved)})")
        self.damaged.add(step)

    def _read(self, step: int) -> tuple[dict, str]:
        payload, checksum = self.saved[step]
        state = json.loads(payload)
        if step in self.damaged:
            # A torn write: the numbers are there, but not the ones that were saved.
            state = {k: (v ^ 0x5A5A if isinstance(v, int) and k != "step" else v) for k, v in state.items()}
        return state, checksum

    def load_latest(self, verify: bool = True) -> dict[str, Any] | None:
        """The newest checkpoint; with `verify`, the newest whose checksum matches."""
        for step in sorted(self.saved, reverse=True):
            state, checksum = self._read(step)
            if verify and digest(state) != checksum:
                self.reads.append(Read(step, False, "checksum mismatch: skipped"))
                continue
            self.reads.append(
                Read(step, True, "loaded" if digest(state) == checksum else "loaded unverified")
            )
            return state
        return None
