"""Fault schedules: miniray's fault tokens plus the grader's own move, a second client.

A schedule is a tuple of moves, each a short text token so it prints, shrinks and replays:
    "crash charge#1/1 step=2"            miniray: crash that attempt just before its step 2 (its
                                         third call to the cluster; step=N after N steps: before it returns)
    "kill_node node:1 after_event=14"    miniray: lose a node right after kernel event 14
    "pause_node node:1 after_event=9 duration=12"
    "client after_call=1"                grader: a second client starts right after service call 1
The grader's moves are not Ray faults, so they stay here rather than in miniray.faults. A fault
kind's move (its name, the choice points it is tried at, its values, its words) is its entry in
miniray/fault_kinds.py: nothing here names one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from faultlines.reading import Kind, Reading
from miniray import sim
from miniray.sim import Boundary, ChoicePoints, Fault, parse_token

Schedule = tuple[str, ...]
CLIENT = "client"
# A search's moves by name, and the token kind each injects: miniray's fault kinds that name a
# move (miniray/fault_kinds.py), plus the grader's own, a second client. Written once, read both
# ways (a move's tokens, a token's move).
MOVES: dict[str, str] = {**sim.moves(), CLIENT: CLIENT}
MOVE_KINDS = tuple(MOVES)
_MOVE_OF_KIND = {kind: move for move, kind in MOVES.items()}
_ENTRIES = {move: sim.fault_kinds()[kind] for move, kind in sim.moves().items()}


def move_of(token: str) -> str:
    """The move a schedule token is ("kill_node node:1 after_event=3" -> "node_loss")."""
    return _MOVE_OF_KIND[token.split()[0]]


def check_args(move: str, args: dict[str, Any]) -> dict[str, Any]:
    """A tier's values for a move's parameters (exercise.toml), checked against its kind's entry;
    a ValueError that names the move and what it takes."""
    entry = _ENTRIES.get(move)
    if entry is None:
        raise ValueError(f"move {move!r} takes no values (only a fault kind's move does)")
    entry.values(args)
    return dict(args)


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


def describe(move: str, reading: Reading) -> str:
    """One move in plain words, with what the failing run (its reading) shows of it: when it
    struck, a crash's last step.

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
    entry = fault.entry
    if entry.move is not None and entry.move.strikes is Boundary.STEP and fault.step is not None:
        return _in_attempt(fault, reading)
    struck = reading.struck(move)
    when = f"at {struck.time:g} s" if struck is not None else f"after event {fault.after_event}"
    what = entry.describe(fault.target, fault.step, fault.params)
    return f"{when} {what}" if what else move


def _in_attempt(fault: Fault, reading: Reading) -> str:
    """A fault that strikes inside an attempt, before its step (a crash, the caller's cancel):
    when it struck (a crash: its worker died), and the learner's call it came right after, from
    the attempt's journal."""
    steps = reading.journals.get(fault.target, [])
    n = fault.step or 0
    crash = fault.kind == "crash"
    died = reading.first(Kind.WORKER_EXIT, attempt=fault.target) if crash else reading.struck(fault.token())
    if died is None:
        what = "crash" if crash else "be struck"
        return f"{fault.target} would {what} before its step {n}, but this run never got there"
    who = f"at {died.time:g} s {fault.describe()}" + ("" if crash else f" before its step {n}")
    if n == 0:
        return f"{who}, its first call to the cluster (or its return, if it makes none)"
    if len(steps) >= n:
        op, site = steps[n - 1]
        return f"{who}, right after step {n - 1}: `{op}` ({_site(site)})"
    return who


@dataclass
class Boundaries:
    """Where one run could have been broken: miniray's choice points (its attempts' interactions,
    its events, its nodes) and the service calls made. `points.marks` holds the kernel event
    indices at which something visible happened (a log record), with the nodes running an attempt
    then: losing a node elsewhere, or between two such events, changes nothing a later mark would
    not also show. (Exercises about stored objects or actors will want nodes that hold those
    counted as busy too.)"""

    points: ChoicePoints = field(default_factory=ChoicePoints)
    calls: int = 0  # service calls made (reads included)

    def moves(self, kinds: Sequence[str], args: dict[str, dict[str, Any]] | None = None) -> list[str]:
        """Every move of `kinds` this run's boundaries allow, as tokens: a fault kind's at each
        choice point of its boundary (inside attempts first, then after events; kinds in their
        entries' order), with `args` for its values; then the second client, after each call."""
        args = args or {}
        out: list[str] = []
        for boundary in Boundary:
            wanted = [
                (m, e) for m, e in _ENTRIES.items() if m in kinds and e.move and e.move.strikes is boundary
            ]
            if wanted:
                points = self.points.points(boundary)
                for move, entry in wanted:
                    out += entry.move_tokens(points, args.get(move))
        if CLIENT in kinds:
            out += [f"client after_call={i}" for i in range(self.calls + 1)]
        return out

    def count(self, schedule: Schedule, move: str) -> int:
        return sum(1 for t in schedule if move_of(t) == move)
