"""What an exercise's checks.py declares: scenarios, named invariants and the second client.

    checks = Checks()

    @checks.scenario("two-orders")
    def two_orders(sub, ctx):            # runs inside miniray.sim.run, once per schedule
        ctx.cluster(workers=2)
        ...
        return {"charged": ...}          # the outcome the invariants read

    @checks.invariant("charged-at-most-once")
    def once(outcome, ctx):              # None when it holds, else the concrete detail
        ...

    @checks.client
    def second_client(sub, ctx): ...     # what a "client after_call=N" move starts

An invariant's name is what a failure message prints, verbatim.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Scenario = Callable[[Any, Any], Any]
Invariant = Callable[[Any, Any], "str | list[str] | None"]


@dataclass
class Checks:
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    invariants: dict[str, Invariant] = field(default_factory=dict)
    second_client: Scenario | None = None

    def scenario(self, name: str) -> Callable[[Scenario], Scenario]:
        def register(fn: Scenario) -> Scenario:
            self.scenarios[name] = fn
            return fn

        return register

    def invariant(self, name: str) -> Callable[[Invariant], Invariant]:
        def register(fn: Invariant) -> Invariant:
            self.invariants[name] = fn
            return fn

        return register

    def client(self, fn: Scenario) -> Scenario:
        self.second_client = fn
        return fn
