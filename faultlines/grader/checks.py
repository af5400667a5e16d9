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

    @checks.stream_invariant("lease-held-once")
    def one_holder(record, ctx):         # each record as it is logged: a Broken at the one where
        ...                              # it breaks (the grader stops watching then), else None

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
StreamInvariant = Callable[[Any, Any], "Broken | str | None"]  # (record, ctx) -> it breaks here
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
    streams: dict[str, StreamInvariant] = field(default_factory=dict)  # the invariants that watch records
    explanations: dict[str, str] = field(default_factory=dict)  # invariant -> its docstring
    evidence: dict[str, Evidence] = field(default_factory=dict)
    # Evidence an invariant's violations may carry (`Broken(..., evidence={"doubled"})`), which a
    # hint may name as it names an `evidence_for` function's.
    given_evidence: set[str] = field(default_factory=set)
    second_client: Scenario | None = None
    # What a report's timeline leaves out in this exercise (log_lines.readable): fields that are
    # empty or mislead here, by record kind, and whole kinds.
    hidden_fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hidden_kinds: tuple[str, ...] = ()
    # What the run broke when the learner's code ran out of its step budget because of what the
    # scenario asked it (fault09's policy, asked after every failed attempt, answering "front"
    # for ever): (ctx) -> the violations, as data; none, and the verdict is `step-budget`.
    on_budget: Callable[[Any], list[Any]] | None = None

    def scenario(self, name: str) -> Callable[[Scenario], Scenario]:
        def register(fn: Scenario) -> Scenario:
            self.scenarios[name] = fn
            return fn

        return register

    def invariant(self, name: str, evidence: tuple[str, ...] = ()) -> Callable[[Invariant], Invariant]:
        """An invariant, judged when the run ends. `evidence`: the names its violations may carry
        (a `Broken`'s `evidence`), facts of the run a hint can require."""

        def register(fn: Invariant) -> Invariant:
            self.given_evidence.update(evidence)
            self.invariants[name] = fn
            self.explanations[name] = " ".join((fn.__doc__ or "").split())
            return fn

        return register

    def stream_invariant(
        self, name: str, evidence: tuple[str, ...] = ()
    ) -> Callable[[StreamInvariant], StreamInvariant]:
        """An invariant that watches every record of the scenario's cluster as it is logged:
        `(record, ctx) -> None` while it holds, a detail or a `Broken` at the record where it
        breaks. The grader then stops calling it for that run, and the violation's moment is
        that record (`Broken.at`, unless it gives another). It must only observe: `ctx.reading`
        answers for the records so far, the record itself included. It is judged with the
        others, in the order the invariants are declared, when the run ends without an error
        (docs/design/grader.md, "Stream invariants")."""

        def register(fn: StreamInvariant) -> StreamInvariant:
            self.given_evidence.update(evidence)
            self.streams[name] = fn
            self.invariants[name] = lambda outcome, ctx: ctx.streamed.get(name)
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

    def budget_verdict(self, fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
        """The invariants a run broke when the step budget ran out because of its answers."""
        self.on_budget = fn
        return fn

    def client(self, fn: Scenario) -> Scenario:
        self.second_client = fn
        return fn
