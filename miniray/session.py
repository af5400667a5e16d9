"""The one object that holds miniray's state between calls, and the helpers that read it.

Everything that outlives a single call lives in `SESSION`: the runtime that is active now, the
one a finished `sim.run` reports on, the options the next `init()` will use (seed, faults,
budgets), and the clusters made with `cluster_utils.Cluster`, by address. Nothing else in
miniray keeps module-level state, so a test or `sim.run` that saves and restores `SESSION.pending`
leaves no trace behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import waiting
from .faults import Fault
from .runtime import DEFAULT_CONFIG, Runtime
from .system_config import check as check_system_config


@dataclass
class InitOptions:
    """What the next `init()` (or `Cluster()`) builds its runtime with."""

    seed: int = 0
    faults: list[Fault] = field(default_factory=list)
    budget: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> InitOptions:
        return InitOptions(self.seed, list(self.faults), dict(self.budget))


@dataclass
class Session:
    active: Runtime | None = None  # the runtime calls go to now
    last: Runtime | None = None  # the latest activated, even if shut down since: what sim.run reports on
    pending: InitOptions = field(default_factory=InitOptions)
    clusters: dict[str, Runtime] = field(default_factory=dict)  # "sim://cluster-N" -> its runtime
    clusters_made: int = 0  # numbers addresses: never reused, so two live clusters never share one
    # The real functions miniray's stand in for while a runtime is up: (owner, name, original).
    patched: list[tuple[Any, str, Any]] | None = None
    # Modules whose functions each simulated worker gets its own copy of, as Ray pickles them by
    # value (miniray/isolation): `__main__` (scripts, notebook cells), and what
    # `sim.copy_by_value` adds (a grader's submissions, the course's stories). A name covers its
    # submodules.
    by_value: set[str] = field(default_factory=lambda: {"__main__"})
    # Modules that are not the learner's code: a journal entry names the first frame outside them.
    library: set[str] = field(default_factory=lambda: {"miniray"})

    def new_runtime(self, system_config: dict | None = None, seed: int | None = None) -> Runtime:
        check_system_config(system_config, DEFAULT_CONFIG)  # unknown keys are refused, as Ray 2.60 does
        cfg = dict(system_config or {})
        cfg.update(self.pending.budget)
        rt = Runtime(
            seed=self.pending.seed if seed is None else seed,
            system_config=cfg,
            faults=list(self.pending.faults),
            by_value=frozenset(self.by_value),
            library=frozenset(self.library),
        )
        rt.objects.reader = waiting.get  # `await ref` reads as ray.get does (objects.py can't import it)
        return rt

    def register_cluster(self, rt: Runtime) -> str:
        self.clusters_made += 1
        address = f"sim://cluster-{self.clusters_made}"
        self.clusters[address] = rt
        return address

    def find_cluster(self, address: str) -> Runtime | None:
        """The cluster `init(address=...)` connects to; "auto": the newest live one with a head node,
        as Ray's "auto" finds the cluster running on this machine."""
        if address == "auto":
            running = [rt for rt in self.clusters.values() if rt.alive and rt.driver is not None]
            return running[-1] if running else None
        return self.clusters.get(address)


SESSION = Session()
