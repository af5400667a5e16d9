"""Fault schedules: miniray's fault tokens plus the grader's own move, a second client.

A schedule is a tuple of moves, each a short text token so it prints, shrinks and replays:
    "crash charge#1/1 step=2"            miniray: crash that attempt just before its step 2 (its
                                         third call to the cluster; step=N after N steps: before it returns)
    "kill_node node:1 after_event=14"    miniray: lose a node right after kernel event 14
    "pause_node node:1 after_event=9 duration=12"
    "client after_call=1"                grader: a second client starts right after service call 1
The grader's moves are not Ray faults, so they stay here rather than in miniray.faults.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from miniray import sim
from miniray.sim import Fault, parse_token

Schedule = tuple[str, ...]
# A search's moves by name, and the token kind each injects: miniray's fault kinds that name a
# move (miniray/fault_kinds.py), plus the grader's own, a second client. Written once, read both
# ways (a move's tokens, a token's move).
MOVES: dict[str, str] = {**sim.moves(), "client": "client"}
MOVE_KINDS = tuple(MOVES)
_MOVE_OF_KIND = {kind: move for move, kind in MOVES.items()}


def move_of(token: str) -> str:
    """The move a schedule token is ("kill_node node:1 after_event=3" -> "node_loss")."""
    return _MOVE_OF_KIND[token.split()[0]]


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


def _site(site: str) -> str:
    """ "file.py:12" for a file; "your cell [3], line 12" for a notebook cell (IPython names a
    cell's code <ipython-input-3-...>)."""
    path, _, line = site.rpartition(":")
    if path.startswith("<ipython-input-"):
        return f"your cell [{path.split('-')[2]}], line {line}"
    return f"{PurePath(path).name}:{line}" if path else site


def describe(move: str, journals: dict[str, list[tuple[str, str]]], records: Sequence[Any] = ()) -> str:
    """One move in plain words, with what the failing run shows of it (a crash's last step).

    The wording follows miniray's: `step=N` strikes *before* step N of the attempt (its calls to
    the cluster, counted from 0), which is *after* step N-1."""
    if is_client(move):
        n = parse_client(move).after_call
        return (
            "a second client starts before the first call to a service"
            if n == 0
            else f"a second client starts right after service call {n}"
        )
    fault = parse_token(move)
    if fault.kind == "crash":
        steps = journals.get(fault.target, [])
        n = fault.step or 0
        died = [r for r in records if r.kind == "worker.exit" and r.fields.get("attempt") == fault.target]
        if not died:
            return f"{fault.target} would crash before its step {n}, but this run never got there"
        who = f"at {died[0].time:g} s the worker running {fault.target} dies before step {n}"
        if n == 0:
            return f"{who}, its first call to the cluster (or its return, if it makes none)"
        if len(steps) >= n:
            op, site = steps[n - 1]
            return f"{who}, right after step {n - 1}: `{op}` ({_site(site)})"
        return who
    struck = [r for r in records if r.kind == "fault" and r.fields.get("fault") == move]
    when = f"at {struck[0].time:g} s" if struck else f"after event {fault.after_event}"
    if fault.kind == "kill_node":
        return f"{when} node {fault.target} is lost, with every worker and object on it"
    if fault.kind == "pause_node":
        return f"{when} node {fault.target} freezes for {fault.duration:g} s, then runs on"
    return move


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
        if "crash" in kinds:  # before each step of each attempt (and as it returns)
            crash = MOVES["crash"]
            out += [f"{crash} {key} step={k}" for key, n in self.attempts for k in range(n + 1)]
        if "node_loss" in kinds:  # right after each kernel event that showed, on a busy node
            lose = MOVES["node_loss"]
            out += [f"{lose} {node} after_event={i}" for i, busy in self.event_marks for node in busy]
        if "pause" in kinds:
            pause = MOVES["pause"]
            out += [
                f"{pause} {node} after_event={i} duration={pause_s!r}"
                for i, busy in self.event_marks
                for node in busy
            ]
        if "client" in kinds:
            out += [f"client after_call={i}" for i in range(self.calls + 1)]
        return out

    def count(self, schedule: Schedule, move: str) -> int:
        return sum(1 for t in schedule if move_of(t) == move)
