"""Lesson 4's actor: a counter that crashes, restarts and (optionally) reloads a checkpoint.

``run_counter`` creates the actor with the given ``max_restarts`` and ``max_task_retries``, calls
``incr`` ``calls`` times one after another, and records what each call returned or raised. The
actor exits its process on the call after ``crash_every`` successful calls in one life (Ray's
own doc example crashes after 10), and, if ``checkpoint_every`` is set, saves its count to a
simulated database every that many increments and reads it back in ``__init__``.

Default options reproduce Ray's doc_code/actor_restart.py: 50 calls succeed in five lives,
then every call raises ``ActorDiedError`` (a ``RayActorError``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import exceptions, sim
from miniray.liveness import Services

DIED, UNAVAILABLE = "ActorDiedError", "ActorUnavailableError"


@dataclass(frozen=True)
class Outcome:
    """One call's result: the count it returned, or the class name of the error it raised."""

    call: int  # 1-based
    value: int | None
    error: str | None

    def text(self) -> str:
        return str(self.value) if self.error is None else self.error


@dataclass(frozen=True)
class CounterRun:
    outcomes: list[Outcome]
    lives: int  # how many times __init__ ran
    executions: int  # how many times an incr body started (crashed ones and retries included)
    checkpoints: int  # checkpoint writes that landed
    log_text: str

    @property
    def values(self) -> list[int]:
        return [o.value for o in self.outcomes if o.value is not None]

    def count(self, error: str) -> int:
        return sum(o.error == error for o in self.outcomes)

    @property
    def final(self) -> int:
        """The count the actor holds after the last successful call (0 if none succeeded)."""
        return self.values[-1] if self.values else 0

    @property
    def forgotten(self) -> int:
        """Increments the caller was told about that the actor no longer holds."""
        return len(self.values) - self.final

    def lines(self, per_line: int = 10) -> str:
        """The outcomes, ``per_line`` calls to a line, numbered: how the lesson prints a run."""
        rows = []
        for start in range(0, len(self.outcomes), per_line):
            chunk = self.outcomes[start : start + per_line]
            shown = " ".join(_short(o) for o in chunk)
            rows.append(f"calls {chunk[0].call:>2}-{chunk[-1].call:<2}  {shown}")
        return "\n".join(rows)


def _short(outcome: Outcome) -> str:
    if outcome.error is None:
        return str(outcome.value)
    return {DIED: "Died", UNAVAILABLE: "Unavail"}.get(outcome.error, outcome.error)


def run_counter(
    calls: int = 60,
    crash_every: int = 10,
    max_restarts: int = 4,
    max_task_retries: int = -1,
    checkpoint_every: int = 0,
    seed: int = 0,
) -> CounterRun:
    """Run the counter on a fresh miniray cluster and return every call's outcome."""
    if crash_every < 1 or calls < 0 or checkpoint_every < 0:
        raise ValueError("crash_every must be at least 1; calls and checkpoint_every at least 0")
    store = Services()

    def scenario() -> list[Outcome]:
        ray.init(num_cpus=1)

        @ray.remote(max_restarts=max_restarts, max_task_retries=max_task_retries)
        class Counter:
            def __init__(self) -> None:
                # A restart runs __init__ again: the count comes back from the checkpoint, or 0.
                self.count = store.db.get("checkpoints", "counter", 0) if checkpoint_every else 0
                self.served = 0  # calls this life has answered

            def incr(self) -> int:
                if self.served == crash_every:
                    os._exit(1)  # the process dies; Ray decides what the caller sees
                self.served += 1
                self.count += 1
                if checkpoint_every and self.count % checkpoint_every == 0:
                    store.db.upsert("checkpoints", "counter", self.count)
                return self.count

        counter = Counter.remote()  # type: ignore[attr-defined]  # made remote by the decorator
        outcomes = []
        for call in range(1, calls + 1):
            try:
                outcomes.append(Outcome(call, ray.get(counter.incr.remote()), None))
            except exceptions.RayActorError as error:
                outcomes.append(Outcome(call, None, type(error).__name__))
        return outcomes

    run = sim.run(scenario, seed=seed)
    if run.error is not None:
        raise RuntimeError(f"the counter scenario failed (replay: {run.token()}): {run.error!r}")
    reading = Reading.of_run(run)
    return CounterRun(
        outcomes=run.value,
        lives=reading.count(Kind.ACTOR_START),
        executions=reading.count(Kind.TASK_START, task="Counter.incr"),
        checkpoints=len(store.of(op="upsert", outcome="ok")),
        log_text=run.log_text,
    )


def timeline(log_text: str, kinds: tuple[str, ...] = ("actor.", Kind.WORKER_EXIT, Kind.EFFECT)) -> str:
    """The actor's life story from a run's log: starts, states, exits and checkpoint writes."""
    keep = []
    for line in log_text.splitlines():
        stamp, _, rest = line.strip().partition(" ")
        if rest.startswith(kinds):
            rest = rest.replace(" token=", "").replace(" service=db", "").replace(" name=", "")
            keep.append(f"{float(stamp):5.1f} s  {rest.strip()}")
    return "\n".join(keep)
