"""One scenario run under a fault schedule, kept with its lanes: what the widgets and pages draw."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from faultlines.reading import Lanes, Reading
from miniray import sim
from miniray.sim import Fault


@dataclass(frozen=True)
class Observed:
    run: sim.Run
    lanes: Lanes  # the run's reading's lanes, on the time axis

    @property
    def ok(self) -> bool:
        return self.run.error is None

    def outcome(self) -> str:
        """The value it returned, or the exception's class and first line."""
        if self.run.error is None:
            return repr(self.run.value)
        first = str(self.run.error).strip().splitlines()[0] if str(self.run.error).strip() else ""
        return f"{type(self.run.error).__name__}: {first}"


def observe(scenario: Callable[[], Any], seed: int = 0, faults: Iterable[Fault | str] = ()) -> Observed:
    """Run `scenario` on a fresh simulated cluster (sim.run) and read it."""
    run = sim.run(scenario, seed=seed, faults=list(faults))
    return Observed(run, Reading.of_run(run).lanes)
