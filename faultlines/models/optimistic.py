"""Optimistic placement with rejection: two scheduling loops, stale views, one free slot (lesson 8).

A course model, not Ray semantics (miniray has one scheduler). Each loop places tasks from its
own queue using a snapshot of free slots that it refreshes every `refresh_s`; a snapshot says
what was free when it was taken. The node is the authority: it accepts a task if it has a free
slot now and rejects it otherwise, and a rejected task goes back to its loop's queue to be
placed again from a fresher view. Nothing is lost and nothing runs twice; the price is a wasted
round trip, and a wait for the next refresh.

Everything happens on a grid of `tick_s`, so runs are exact and repeatable.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Task:
    name: str
    loop: str
    arrives: float
    runs_for: float


@dataclass
class Outcome:
    log: list[str] = field(default_factory=list)
    started: dict[str, float] = field(default_factory=dict)  # task -> start time
    placed_on: dict[str, str] = field(default_factory=dict)
    rejections: int = 0


def run(
    tasks: list[Task], slots: dict[str, int], refresh_s: float = 1.0, tick_s: float = 0.1, until: float = 20.0
) -> Outcome:
    """Play the tasks through the loops; every placement, acceptance and rejection is logged."""
    if not refresh_s > 0 or not tick_s > 0:
        raise ValueError(f"refresh_s and tick_s must be > 0 (got {refresh_s}, {tick_s})")
    free = dict(slots)  # the truth, held by the nodes
    loops = sorted({t.loop for t in tasks})
    views = {loop: dict(free) for loop in loops}  # each loop's snapshot
    queues: dict[str, list[Task]] = {loop: [] for loop in loops}
    running: list[tuple[float, str, str]] = []  # (ends, task, node)
    out = Outcome()
    steps = round(until / tick_s)
    refresh_every = max(1, round(refresh_s / tick_s))
    for k in range(steps + 1):
        now = round(k * tick_s, 9)
        for ends, name, node in [r for r in running if r[0] <= now]:
            running.remove((ends, name, node))
            free[node] += 1
            out.log.append(f"{now:5.1f}  {node} finishes {name}: {free[node]} slot(s) free")
        if k % refresh_every == 0 and k:
            stale = any(views[loop] != free for loop in loops)
            for loop in loops:
                views[loop] = dict(free)
            if stale:  # only refreshes that change a view are worth a line
                out.log.append(f"{now:5.1f}  the loops refresh their views: {_fmt(free)}")
        for t in tasks:
            if t.arrives == now:
                queues[t.loop].append(t)
        for loop in loops:
            for t in list(queues[loop]):
                target = next((n for n, f in sorted(views[loop].items()) if f > 0), None)
                if target is None:
                    continue  # the view says nothing is free: wait for a refresh
                queues[loop].remove(t)
                views[loop][target] -= 1  # the loop's own bookkeeping; the other loop can't see it
                if free[target] > 0:
                    free[target] -= 1
                    running.append((round(now + t.runs_for, 9), t.name, target))
                    out.started[t.name] = now
                    out.placed_on[t.name] = target
                    out.log.append(f"{now:5.1f}  {loop} places {t.name} on {target}: accepted")
                else:
                    out.rejections += 1
                    queues[loop].append(t)
                    out.log.append(
                        f"{now:5.1f}  {loop} places {t.name} on {target}: rejected (no free slot); back to {loop}'s queue"
                    )
    return out


def _fmt(free: dict[str, int]) -> str:
    return ", ".join(f"{n}={f}" for n, f in sorted(free.items()))


# The lesson's case: one free slot on N3, two loops, a task arriving at each 0.1 s apart.
CASE_TASKS = [Task("a", "loop-1", 0.1, 3.0), Task("b", "loop-2", 0.2, 3.0)]
CASE_SLOTS = {"N1": 0, "N2": 0, "N3": 1}
