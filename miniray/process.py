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
* `sys.exit()` in a body (`SystemExit`) ends that worker, not the program: see
  `miniray.execution.exit_of`.

Where this differs from Ray: signals land at once (Ray's raylet notices a dead worker a little
later); SIGINT, SIGUSR1 and friends are refused instead of delivered to handlers; and a real
process whose pid happens to equal a simulated worker's cannot be signalled while the runtime is up.
"""

from __future__ import annotations

import errno
import signal
import threading
from collections.abc import Callable

from .cluster import Worker
from .events import Kind
from .execution import BodyRun, WorkerExit
from .runtime import Runtime

# Signals whose default action ends a process: each one kills a simulated worker as a crash.
FATAL_SIGNALS = frozenset(
    int(getattr(signal, name))
    for name in ("SIGKILL", "SIGTERM", "SIGQUIT", "SIGABRT", "SIGHUP")
    if hasattr(signal, name)  # Pyodide's signal module has fewer names
)


def simulated_getpid(
    real_getpid: Callable[[], int], body_of: Callable[[], BodyRun | None]
) -> Callable[[], int]:
    """`os.getpid` while a runtime is up (installed by miniray.context): the worker's pid in a body."""

    def getpid() -> int:
        body = body_of()
        return body.worker.pid if body is not None else real_getpid()

    return getpid


def simulated_kill(
    real_kill: Callable[[int, int], None] | None,
    real_getpid: Callable[[], int],
    active: Callable[[], Runtime | None],
    body_of: Callable[[], BodyRun | None],
) -> Callable[[int, int], None]:
    """`os.kill` while a runtime is up: a simulated worker's pid gets the signal as a crash."""

    def kill(pid: int, sig: int) -> None:
        rt = active()
        body = body_of()
        worker = None
        if rt is not None and threading.current_thread() is threading.main_thread():
            worker = _simulated_worker(rt, body, pid, real_getpid)
        if rt is None or worker is None:
            if real_kill is None:
                raise OSError(errno.ENOSYS, "os.kill is not available here")
            return real_kill(pid, sig)
        return _signal(rt, body, worker, pid, int(sig))

    return kill


def _simulated_worker(
    rt: Runtime, body: BodyRun | None, pid: int, real_getpid: Callable[[], int]
) -> Worker | None:
    if body is None and pid == real_getpid():
        return None  # the driver's own pid is the real process's, whatever the simulation uses
    for worker in reversed(rt.workers):  # newest first: a pid is never reused, but be safe
        if worker.pid == pid and worker.kind != "driver":
            return worker
    return None


def _signal(rt: Runtime, body: BodyRun | None, worker: Worker, pid: int, sig: int) -> None:
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
    name = signal.Signals(sig).name
    if body is not None and body.worker is worker:  # the process ends here: its cleanup reaches nothing
        raise body.halt(WorkerExit(f"killed by {name}"))

    def live() -> None:
        rt.emit(Kind.WORKER_SIGNAL, worker=worker.pid, node=worker.node.name, signal=name)
        rt.kill_worker(worker, cause="signal")

    if body is not None:  # another worker's body sends it: journaled, so a replay sends it once
        body.interact(live, f"os.kill {name}")
    else:
        live()
    return None
