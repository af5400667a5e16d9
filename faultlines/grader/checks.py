"""What an exercise's checks.py declares: scenarios, named invariants and the second client.

    checks = Checks()

    @checks.scenario("two-orders")
    def two_orders(sub, ctx):            # runs inside miniray.sim.run, once per schedule
        ctx.cluster(workers=2)
        ...
        return {"charged": ...}          # the outcome the invariants read

    @checks.invariant("charged-at-most-once")
    def once(outcome, ctx):              # None when it holds, else the concrete detail, or a
        # Broken(detail, attempts=..., at=..., final=...) saying what the run shows of it
        # its docstring: "Each order's card is charged at most once, whatever crashes do."

    @checks.evidence_for("no-key")
    def no_key(outcome, ctx):            # True when this run shows the mistake a hint names
        return any(c["key"] is None for c in outcome["charges"])

    @checks.client
    def second_client(sub, ctx): ...     # what a "client after_call=N" move starts

An invariant's name is what a failure message prints, verbatim; its docstring is the plain-words
explanation a report gives when no catalogued mistake matches the run. A hint (exercise.toml)
names the evidence it needs; see docs/design/grader.md. `ctx.reading` (faultlines/reading) answers
questions about the run so far (`ctx.reading.attempts("fetch")`): checks never compare record kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from faultlines.reading import Broken
from miniray import sim

__all__ = ["Broken", "Checks", "Service"]

Scenario = Callable[[Any, Any], Any]
Invariant = Callable[[Any, Any], Any]  # -> None | str | Broken | a list of str or Broken
Evidence = Callable[[Any, Any], bool]


@sim.external
class Service:
    """Base class of a scenario's stand-in for something outside the cluster: a ledger, a card
    gateway, a checkpoint store. Handed to a task as an argument, it stays the same service, as a
    client object would reach the same service on Ray (`miniray.sim.external`: miniray copies
    every other argument for each reader)."""


@dataclass
class Checks:
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    invariants: dict[str, Invariant] = field(default_factory=dict)
    explanations: dict[str, str] = field(default_factory=dict)  # invariant -> its docstring
    evidence: dict[str, Evidence] = field(default_factory=dict)
    second_client: Scenario | None = None
    # What a report's timeline leaves out in this exercise (log_lines.readable): fields that are
    # empty or mislead here, by record kind, and whole kinds.
    hidden_fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hidden_kinds: tuple[str, ...] = ()

    def scenario(self, name: str) -> Callable[[Scenario], Scenario]:
        def register(fn: Scenario) -> Scenario:
            self.scenarios[name] = fn
            return fn

        return register

    def invariant(self, name: str) -> Callable[[Invariant], Invariant]:
        def register(fn: Invariant) -> Invariant:
            self.invariants[name] = fn
            self.explanations[name] = " ".join((fn.__doc__ or "").split())
            return fn

        return register

    def evidence_for(self, name: str) -> Callable[[Evidence], Evidence]:
        """A fact about one run (`(outcome, ctx) -> bool`) that a hint can require. `outcome` is
        None when the run ended without one (a budget, a deadlock, the scenario raised)."""

        def register(fn: Evidence) -> Evidence:
            self.evidence[name] = fn
            return fn

        return register

    def client(self, fn: Scenario) -> Scenario:
        self.second_client = fn
        return fn
