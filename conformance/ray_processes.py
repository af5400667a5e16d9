"""Killing what a real-Ray run leaves behind.

Real Ray leaves processes behind when a run is killed (raylets, actor workers in their own
process groups). Each real-Ray run gets a private RAY_TMPDIR; when it ends, any process still
carrying that RAY_TMPDIR in its environment is killed: precise, and never touches another
cluster.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path


def kill_group(pgid: int) -> None:
    """SIGKILL a process group (a run started with start_new_session=True); gone already is fine."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def kill_processes_with_env(name: str, value: str) -> None:
    """SIGKILL every process whose environment has name=value (Linux /proc)."""
    needle = f"{name}={value}".encode()
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except ProcessLookupError:
                pass
