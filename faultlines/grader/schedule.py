"""Fault schedules: miniray's fault tokens plus the grader's own move, a second client.

A schedule is a tuple of moves, each a short text token so it prints, shrinks and replays:
    "crash charge#1/1 step=2"            miniray: crash that attempt just before interaction 2
    "kill_node node:1 after_event=14"    miniray: lose a node right after kernel event 14
    "pause_node node:1 after_event=9 duration=12"
    "client after_call=1"                grader: a second client starts right after service call 1
The grader's moves are not Ray faults, so they stay here rather than in miniray.faults.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from miniray.faults import Fault, parse_token

Schedule = tuple[str, ...]
MOVE_KINDS = ("crash", "node_loss", "pause", "client")


@dataclass(frozen=True)
class ClientMove:
    after_call: int


def is_client(token: str) -> bool:
    return token.startswith("client ")


def parse_client(token: str) -> ClientMove:
    _, arg = token.split(" ", 1)
    key, value = arg.split("=", 1)
    if key != "after_call":
        raise ValueError(f"bad client move {token!r}")
    return ClientMove(int(value))


def split(schedule: Schedule) -> tuple[list[Fault], list[ClientMove]]:
    """The miniray faults (for sim.run) and the grader's client moves of a schedule."""
    faults = [parse_token(t) for t in schedule if not is_client(t)]
    clients = [parse_client(t) for t in schedule if is_client(t)]
    return faults, clients


def validate(token: str) -> str:
    """Raise ValueError with a readable message if `token` is not a move."""
    if is_client(token):
        parse_client(token)
    else:
        parse_token(token)
    return token


@dataclass
class Boundaries:
    """Where one run could have been broken: its attempts' interactions, events, calls, nodes."""

    attempts: list[tuple[str, int]] = field(default_factory=list)
    events: int = 0
    calls: int = 0  # service calls made (reads included)
    nodes: list[str] = field(default_factory=list)
    # Kernel event indices at which something visible happened (a log record), with the nodes
    # running an attempt then: losing a node elsewhere, or between two such events, changes
    # nothing a later mark would not also show. (Exercises about stored objects or actors will
    # want nodes that hold those counted as busy too.)
    event_marks: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)

    def moves(self, kinds: tuple[str, ...], pause_s: float) -> list[str]:
        out: list[str] = []
        if "crash" in kinds:
            out += [f"crash {key} step={k}" for key, n in self.attempts for k in range(n + 1)]
        if "node_loss" in kinds:
            out += [f"kill_node {node} after_event={i}" for i, busy in self.event_marks for node in busy]
        if "pause" in kinds:
            out += [
                f"pause_node {node} after_event={i} duration={pause_s!r}"
                for i, busy in self.event_marks
                for node in busy
            ]
        if "client" in kinds:
            out += [f"client after_call={i}" for i in range(self.calls + 1)]
        return out

    def count(self, schedule: Schedule, kind: str) -> int:
        prefix = {"crash": "crash ", "node_loss": "kill_node ", "pause": "pause_node ", "client": "client "}[
            kind
        ]
        return sum(1 for t in schedule if t.startswith(prefix))
