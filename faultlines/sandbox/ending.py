"""How a jail that broke off the conversation ended, in one line, from what the judge can know.

- its wait status: bubblewrap passes on 128 + the signal that ended the jailed Python. SIGXCPU
  comes at the soft CPU limit (inside.py sets it), SIGKILL at the hard one, 5 s later, when the
  learner's code ignored SIGXCPU; a SIGKILL from anyone else (an administrator, the machine's
  out-of-memory killer) is not the CPU limit, and is not reported as one;
- the CPU time the jail last reported (each message says it) and the wall clock since then, times
  the cores: an upper bound on the CPU it can have used, which tells the two SIGKILLs apart;
- the pids cgroup's events (did it try to start more processes than it may), and the tail of its
  stderr (a MemoryError it printed).
"""

from __future__ import annotations

import os
import signal

from .channel import ChannelBroken, now
from .jail import Jail, Limits
from .judge import Bridge

WALL = "ran past its wall-clock limit"
CPU = "resource limit: the submission's process ran out of CPU time (a safety net past the step budget)"
MEMORY = (
    "resource limit: the submission's process, or what it sent the judge, ran out of memory "
    "(a safety net past the step budget)"
)


def explain(e: ChannelBroken, jail: Jail, bridge: Bridge | None, limits: Limits) -> str:
    if e.reason == WALL:
        return (
            f"the submission ran past the {limits.wall_seconds:g} s wall-clock limit "
            "(does it sleep, block or loop outside the simulation?)"
        )
    # A jail that ended is reaped now; one still running (it broke the protocol) is not waited for.
    status = _status(jail, 5.0 if e.reason == "ended" else 0.2)
    errors = _stderr(jail, bridge)
    if "MemoryError" in errors:
        return MEMORY
    if status in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return CPU
    if status in (-signal.SIGKILL, 128 + signal.SIGKILL):
        used = cpu_bound(bridge)
        if used >= limits.cpu_seconds:
            return CPU
        return (
            f"the submission's process was killed from outside the grader (SIGKILL, with at most "
            f"{used:.0f} s of its {limits.cpu_seconds} s of CPU used): not graded"
        )
    if e.reason == "ended":
        last = errors.strip().splitlines()[-1:] or [""]
        ended = (
            f"the submission's process ended (status {status}) before the grading did{_pids(jail, limits)}"
        )
        return f"{ended}: not graded {last[0][:200]}".rstrip()
    return f"the submission's process {e.reason}: not graded"


def cpu_bound(bridge: Bridge | None) -> float:
    """The most CPU time the jail can have used: what it last said, plus every core since."""
    if bridge is None:
        return float("inf")
    cpu, at = bridge.cpu_seen
    return cpu + max(0.0, now() - at) * (os.cpu_count() or 1)


def _status(jail: Jail, timeout: float) -> int | None:
    try:
        return jail.proc.wait(timeout=timeout)
    except Exception:
        return None


def _pids(jail: Jail, limits: Limits) -> str:
    """What the pids cgroup saw: forks refused at its cap."""
    if jail.group is None:
        return ""
    try:
        events = (jail.group.path / "pids.events").read_text().split()
    except OSError:
        return ""
    refused = int(events[1]) if len(events) == 2 and events[0] == "max" and events[1].isdigit() else 0
    return f" (it tried to run more than {limits.max_pids} processes)" if refused else ""


def _stderr(jail: Jail, bridge: Bridge | None) -> str:
    """The last of what the jail wrote on stderr: the tail the judge kept, and what came after."""
    tail = bridge.channel.stderr_tail if bridge is not None else b""
    if jail.proc.stderr is not None:
        try:
            os.set_blocking(jail.errors, False)
            tail += os.read(jail.errors, 1 << 16)
        except (OSError, ValueError):
            pass
    return tail[-(1 << 14) :].decode(errors="replace")
