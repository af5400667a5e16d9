"""What if: a schedule with one fault removed or moved, as tokens the report prints.

Each fault has one knob that says where it strikes: a crash's `step` (the attempt's interaction
it comes before), a timed fault's `at` (virtual seconds) or `after_event` (kernel event), a
second client's `after_call`. Moving a fault changes that knob and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from faultlines.grader.schedule import is_client, parse_client
from miniray.sim import Fault, parse_token

Schedule = tuple[str, ...]


@dataclass(frozen=True)
class Knob:
    name: str  # "step", "at", "after_event", "after_call"
    value: float
    whole: bool  # an integer knob (steps, events, calls) or seconds

    @property
    def label(self) -> str:
        return {"step": "step", "at": "at (s)", "after_event": "after event", "after_call": "after call"}[
            self.name
        ]


def knob(token: str) -> Knob | None:
    if is_client(token):
        return Knob("after_call", parse_client(token).after_call, True)
    fault = parse_token(token)
    if fault.step is not None:
        return Knob("step", fault.step, True)
    if fault.after_event is not None:
        return Knob("after_event", fault.after_event, True)
    if fault.at is not None:
        return Knob("at", fault.at, False)
    return None  # strikes at once (no time to move it to)


def moved(token: str, value: float) -> str:
    """`token` with its knob set to `value` (ValueError if it has none, or the value is negative)."""
    if value < 0:
        raise ValueError("a fault cannot strike before the run starts: use 0 or more")
    k = knob(token)
    if k is None:
        raise ValueError(f"{token!r} has no time, step or event to move")
    if k.name == "after_call":
        return f"client after_call={int(value)}"
    fault: Fault = parse_token(token)
    if k.name == "step":
        return replace(fault, step=int(value)).token()
    if k.name == "after_event":
        return replace(fault, after_event=int(value)).token()
    return replace(fault, at=float(value)).token()


def without(schedule: Schedule, index: int) -> Schedule:
    return schedule[:index] + schedule[index + 1 :]


def removals(schedule: Schedule, limit: int = 16) -> list[Schedule]:
    """Every schedule reachable by removing faults one at a time (all subsets, the full one
    first), at most `limit`: what the standalone page precomputes."""
    out: list[Schedule] = []
    frontier = [schedule]
    while frontier and len(out) < limit:
        nxt = []
        for current in frontier:
            if current in out:
                continue
            out.append(current)
            nxt += [without(current, i) for i in range(len(current))]
        frontier = nxt
    return out[:limit]
