"""A pids cgroup per jailed process tree: a cap on processes that binds root too.

RLIMIT_NPROC does not bind uid 0 (the kernel exempts the root user), and a grading machine
often runs the CLI as root. A pids cgroup counts every process and thread of the tree whatever
its uid, so a fork bomb stops at `pids.max`. It also lists every process of the tree, so the
judge can kill them all and check that none is left.

cgroup v1 (a `pids` hierarchy) and v2 (a `pids` controller in our own cgroup's subtree) are both
tried; where neither is writable, `create` returns None and the caller falls back to a non-root
uid with RLIMIT_NPROC (see machine.py).
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_COUNTER = itertools.count()


@dataclass(frozen=True)
class Hierarchy:
    """Where this process's pids cgroup lives, and which cgroup version it is."""

    base: Path  # our own cgroup in the pids hierarchy: new cgroups go under it
    version: int


def _mounts() -> list[tuple[str, str, str]]:
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) >= 4:
            out.append((parts[1], parts[2], parts[3]))  # mount point, type, options
    return out


def _own_paths() -> dict[str, str]:
    """controller list (or "" for v2) -> our cgroup's path, from /proc/self/cgroup."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return {}
    out = {}
    for line in lines:
        _, controllers, path = line.split(":", 2)
        out[controllers] = path
    return out


def find() -> Hierarchy | None:
    """A pids hierarchy this process may create cgroups in, or None."""
    own = _own_paths()
    for point, kind, options in _mounts():
        if kind == "cgroup" and "pids" in options.split(","):
            path = next((p for c, p in own.items() if "pids" in c.split(",")), "/")
            base = Path(point) / path.lstrip("/")
            if os.access(base, os.W_OK):
                return Hierarchy(base, 1)
    for point, kind, _ in _mounts():
        if kind == "cgroup2" and "" in own:
            base = Path(point) / own[""].lstrip("/")
            if (base / "cgroup.controllers").is_file() and "pids" in (
                base / "cgroup.controllers"
            ).read_text().split():
                if os.access(base, os.W_OK):
                    return Hierarchy(base, 2)
    return None


class PidsCgroup:
    """One cgroup holding one jailed tree: `join_file` is what its first process writes its pid to."""

    def __init__(self, path: Path, version: int) -> None:
        self.path = path
        self.version = version

    @property
    def join_file(self) -> Path:
        return self.path / "cgroup.procs"

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in self.join_file.read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self) -> int:
        """SIGKILL every process in it, until none is left; returns how many were found."""
        found: set[int] = set()
        kill_file = self.path / "cgroup.kill"
        for _ in range(200):
            pids = self.pids()
            if not pids:
                break
            found.update(pids)
            if self.version == 2 and kill_file.exists():
                try:
                    kill_file.write_text("1")
                except OSError:
                    pass
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.005)
        return len(found)

    def remove(self) -> None:
        """Kill what is left and remove the cgroup (retried while the dead are reaped)."""
        self.kill_all()
        for _ in range(200):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.005)


def sweep(where: Hierarchy) -> None:
    """Remove cgroups a judge that was killed (SIGKILL: no cleanup) left behind, empty or not."""
    try:
        entries = list(where.base.glob("faultlines-*-*"))
    except OSError:
        return
    for path in entries:
        pid = path.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            PidsCgroup(path, where.version).remove()


def create(where: Hierarchy, max_pids: int, owner: int | None = None) -> PidsCgroup | None:
    """A new cgroup under `where` capped at `max_pids`; `owner` may move itself into it."""
    path = where.base / f"faultlines-{os.getpid()}-{next(_COUNTER)}"
    try:
        path.mkdir()
    except OSError:
        return None
    group = PidsCgroup(path, where.version)
    try:
        (path / "pids.max").write_text(str(max_pids))
        if owner is not None:
            os.chown(group.join_file, owner, -1)
    except OSError:
        group.remove()
        return None
    return group
