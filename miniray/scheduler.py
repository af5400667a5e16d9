"""Where work runs: Ray's default hybrid policy, SPREAD, node affinity and label selectors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import exceptions as exc
from .cluster import label_matches

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .runtime import Runtime


class Scheduler:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.spread_next = 0
        # Predicates a node must pass to receive new work (e.g. failure attribution's blacklist).
        self.node_filters: list = []

    def placement_key(self, spec) -> tuple:
        strategy = spec.opts.get("scheduling_strategy")
        selector = spec.opts.get("label_selector") or {}
        return (
            tuple(sorted(spec.resources.items())),
            _strategy_key(strategy),
            tuple(sorted(selector.items())),
        )

    def candidates(self, spec, req: dict) -> list:
        selector = spec.opts.get("label_selector")
        return [
            n
            for n in self.rt.nodes
            if n.alive
            and n.drain is None  # a draining node takes no new leases (miniray/drain.py)
            and n.feasible(req)
            and label_matches(n.labels, selector)
            and all(keep(n) for keep in self.node_filters)
        ]

    def pick(self, spec, req: dict | None = None):
        req = spec.resources if req is None else req
        strategy = spec.opts.get("scheduling_strategy")
        nodes = self.candidates(spec, req)
        if not self.rt.gcs.alive:  # what can start without the GCS (miniray/head)
            nodes = [n for n in nodes if self.rt.gcs.can_start(spec.kind, n)]
            if not nodes:
                return None
        lending = self.rt.lending
        if lending.lenders:  # Ray's cap on one class's running tasks binds only beside a blocked task
            nodes = [n for n in nodes if not lending.capped(spec, n)]
        if strategy is not None and hasattr(strategy, "node_id") and hasattr(strategy, "soft"):
            target = [n for n in nodes if n.node_id == strategy.node_id]
            if target and target[0].fits(req):
                return target[0]
            if not strategy.soft:
                return None
        elif strategy is not None and hasattr(strategy, "placement_group"):
            return self.rt.placement.pick(spec, strategy, req)
        fitting = [n for n in nodes if n.fits(req)]
        if not fitting:
            return None
        if strategy == "SPREAD":
            fitting.sort(key=lambda n: (n.index - self.spread_next) % (len(self.rt.nodes) + 1))
            self.spread_next = fitting[0].index + 1
            return fitting[0]
        # Ray's hybrid default: stay on the submitter's node while it is under half busy, then
        # go to the least utilised node (ties broken by node order, so runs are reproducible).
        local = spec.owner.node
        if local in fitting and local.utilization() < 0.5:
            return local
        return min(fitting, key=lambda n: (n.utilization(), n.index))

    def unschedulable(self, spec):
        """An error when the work can never run (hard affinity to a dead or draining node), else None."""
        strategy = spec.opts.get("scheduling_strategy")
        if strategy is not None and hasattr(strategy, "node_id") and not strategy.soft:
            node = self.rt.node_by_id(strategy.node_id)
            if node is None or not node.alive or node.drain is not None:
                msg = (
                    f"The node specified via NodeAffinitySchedulingStrategy doesn't exist any more "
                    f"or is infeasible, and soft=False was specified. (node {strategy.node_id})"
                )
                if spec.kind == "actor_creation":
                    return exc.ActorUnschedulableError(msg)
                return exc.TaskUnschedulableError(msg)
        if strategy is not None and hasattr(strategy, "placement_group"):
            return self.rt.placement.unschedulable(spec, strategy)
        return None

    def infeasible(self, spec) -> bool:
        return not self.candidates(spec, spec.resources)


def _strategy_key(strategy) -> str:
    if strategy is None or isinstance(strategy, str):
        return str(strategy)
    return repr(strategy)
