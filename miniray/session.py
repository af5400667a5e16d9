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

from .faults import Fault
from .runtime import Runtime


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
    patched: tuple | None = None  # the real time/os functions while miniray's are installed

    def new_runtime(self, system_config: dict | None = None, seed: int | None = None) -> Runtime:
        cfg = dict(system_config or {})
        cfg.update(self.pending.budget)
        return Runtime(
            seed=self.pending.seed if seed is None else seed,
            system_config=cfg,
            faults=list(self.pending.faults),
        )

    def register_cluster(self, rt: Runtime) -> str:
        self.clusters_made += 1
        address = f"sim://cluster-{self.clusters_made}"
        self.clusters[address] = rt
        return address


SESSION = Session()
