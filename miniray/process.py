"""Simulated process identity: each worker's pid, signals sent to it, and how its process exits.

On Ray every task and actor runs in its own worker process, so Ray's examples crash one with
`os.kill(os.getpid(), signal.SIGKILL)`, with a pid an actor returned, or with `sys.exit()` in an
actor method. miniray runs every body inside the learner's own process, so while a runtime is up:

* `os.getpid()` inside a body returns that simulated worker's pid (10001 upward, the same every
  run); in the driver it is still the real process's pid;
* `os.kill(pid, sig)` on a simulated worker's pid never reaches the operating system: SIGKILL,
  SIGTERM, SIGQUIT, SIGABRT and SIGHUP kill that worker as a crash (a task is retried, an actor
  restarted, within their budgets); signal 0 only checks it is alive; other signals are refused
  with a ValueError, because a simulated worker has no signal handlers to run. A dead worker's
  pid raises ProcessLookupError, as a reaped process does. Any other pid is the real `os.kill`.
* `sys.exit()` in a body (`SystemExit`) ends that worker, not the program: see `exit_of`.

Where this differs from Ray: signals land at once (Ray's raylet notices a dead worker a little
later); SIGINT, SIGUSR1 and friends are refused instead of delivered to handlers; and a real
process whose pid happens to equal a simulated worker's cannot be signalled while the runtime is up.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
from dataclasses import dataclass
from typing import Any

# Signals whose default action ends a process: each one kills a simulated worker as a crash.
FATAL_SIGNALS = frozenset(
    int(getattr(signal, name))
    for name in ("SIGKILL", "SIGTERM", "SIGQUIT", "SIGABRT", "SIGHUP")
    if hasattr(signal, name)  # Pyodide's signal module has fewer names
)

_saved: dict[str, Any] = {}


def install() -> None:
    """Route `os.getpid` and `os.kill` through the active runtime (undone by `uninstall`)."""
    if _saved:
        return
    _saved["getpid"], _saved["kill"] = os.getpid, getattr(os, "kill", None)
    os.getpid = _getpid
    os.kill = _kill


def uninstall() -> None:
    if not _saved:
        return
    os.getpid = _saved.pop("getpid")
    real_kill = _saved.pop("kill")
    if real_kill is None:
        del os.kill
    else:
        os.kill = real_kill


def _body():
    from . import context

    return context._body()


def _getpid() -> int:
    body = _body()
    return body.worker.pid if body is not None else _saved["getpid"]()


def _simulated_worker(pid: int):
    from . import context

    rt = context.current()
    if rt is None or threading.current_thread() is not threading.main_thread():
        return None, None
    if _body() is None and pid == _saved["getpid"]():
        return rt, None  # the driver's own pid is the real process's, whatever the simulation uses
    for worker in reversed(rt.workers):  # newest first: a pid is never reused, but be safe
        if worker.pid == pid and worker.kind != "driver":
            return rt, worker
    return rt, None


def _kill(pid: int, sig: int) -> None:
    rt, worker = _simulated_worker(pid)
    if worker is None:
        real_kill = _saved.get("kill")
        if real_kill is None:
            raise OSError(errno.ENOSYS, "os.kill is not available here")
        return real_kill(pid, sig)
    sig = int(sig)
    if not worker.alive:
        raise ProcessLookupError(errno.ESRCH, "No such process")
    if sig == 0:
        return None
    if sig not in FATAL_SIGNALS:
        names = ", ".join(sorted(signal.Signals(s).name for s in FATAL_SIGNALS))
        raise ValueError(
            f"miniray delivers only process-ending signals ({names}, or 0 to check a pid) to "
            f"simulated worker pid {pid}; signal {sig} would run a handler, which a simulated "
            "worker does not have."
        )
    from .execution import WorkerExit

    body = _body()
    name = signal.Signals(sig).name
    if body is not None and body.worker is worker:
        raise WorkerExit(f"killed by {name}")

    def live() -> None:
        rt.emit("worker.signal", worker=worker.pid, node=worker.node.name, signal=name)
        rt.kill_worker(worker, cause="signal")

    from . import context

    context.interact(rt, live)
    return None


@dataclass
class Exit:
    """How a body's `SystemExit` ends its worker: `intended` (code 0 in an actor) or a crash."""

    reason: str
    intended: bool


def exit_of(body, error: SystemExit) -> Exit:
    """Ray's reading of `sys.exit(code)` in a body (recorded in the `process_exit` scenario).

    In an actor method, code 0 is an intended exit (INTENDED_USER_EXIT): the actor dies for good
    and is not restarted. Any other code, None included, is an unexpected exit: the actor is
    restarted within max_restarts. In a task, any exit is a worker crash, retried within
    max_retries.
    """
    code = error.code
    in_actor = body.worker.actor is not None
    if in_actor and code == 0:
        return Exit("Worker exits by an user request. Worker exits with an exit code 0.", intended=True)
    return Exit(f"Worker exits with an exit code {code}.", intended=False)


INTENDED_EXIT_DETAIL = (
    "The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT "
    "Worker exit detail: {reason}"
)
