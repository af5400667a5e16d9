"""An autoscaler's delay: a replacement node that joins some time after a node dies.

A course model, not Ray's autoscaler and not part of miniray: miniray has no autoscaler. It
watches the cluster's event log for `node.died` and, `delay_s` virtual seconds later, adds a
node with the same CPUs and custom resources, as a cloud autoscaler would after booting a VM
(Ray's autoscaler reacts to pending resource demand, not to deaths, and its delay is the
cloud's; the effect on a job that needs that node's resources is the same: it waits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from faultlines.reading import Lane, entered
from miniray import sim


@dataclass
class Replacement:
    lost: str
    died_at: float
    joined_at: float
    node: Any = None


@dataclass
class DelayedReplacement:
    cluster: Any  # a miniray.cluster_utils.Cluster
    delay_s: float
    replacements: list[Replacement] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.delay_s < 0:
            raise ValueError("delay_s must be >= 0")
        self.specs: dict[str, dict[str, Any]] = {}
        sim.on_record(self._on_record)  # the cluster is the active one while the model runs

    def remember(self, node: Any, **node_args: Any) -> Any:
        """Record how to rebuild `node` (the args it was added with); returns the node."""
        self.specs[node.name] = node_args
        return node

    def _on_record(self, rec: Any) -> None:
        change = entered(rec)
        if (
            change is None
            or change[0] is not Lane.NODES
            or change[2] != "dead"
            or change[1] not in self.specs
        ):
            return
        entry = Replacement(rec["node"], rec.time, rec.time + self.delay_s)
        self.replacements.append(entry)
        sim.call_later(self.delay_s, self._join, entry)

    def _join(self, entry: Replacement) -> None:
        args = self.specs[entry.lost]
        entry.node = self.cluster.add_node(**args)
        self.specs[entry.node.name] = args
