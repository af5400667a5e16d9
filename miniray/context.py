"""Which runtime is active, and whether the code running now is the driver or a worker's body.

While a runtime is up, `time.sleep`, `time.time`, `time.monotonic`, `time.perf_counter`,
`os._exit`, `os.getpid`, `os.kill` and `asyncio.sleep` are routed through miniray so Ray scripts
run unchanged: inside a task or actor body they spend virtual time and kill only that simulated
worker; in the driver `time.sleep(s)` lets s virtual seconds pass (as `miniray.sim.sleep`).
Other threads get the real functions.

The state itself lives in `session.SESSION`; this module is the one way to switch the active runtime.
"""

from __future__ import annotations

import asyncio
import builtins
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from . import aio, placement, process
from .execution import BodyRun, WorkerExit
from .isolation import warn_file_write
from .journal import learner_site
from .kernel import EPOCH
from .runtime import Runtime
from .session import SESSION

DEFAULT_NUM_CPUS = 4  # fixed, not the host's count: a run must not depend on the machine
DEFAULT_STORE_BYTES = 2 * 1024**3


def current() -> Runtime | None:
    return SESSION.active


def last() -> Runtime | None:
    """The runtime activated most recently, even if it has been shut down since."""
    return SESSION.active or SESSION.last


def require(what: str) -> Runtime:
    """The active runtime, for simulation-only calls that must not start one implicitly."""
    rt = SESSION.active
    if rt is None:
        raise RuntimeError(
            f"miniray is not initialized: call miniray.init() (or create a "
            f"miniray.cluster_utils.Cluster) before {what}."
        )
    return rt


def runtime() -> Runtime:
    """The active runtime; as Ray does, the first remote call starts a local cluster."""
    rt = SESSION.active
    if rt is None:
        rt = start_local(SESSION.new_runtime())
    return rt


placement.find_the_runtime_with(runtime)  # placement.diagnose() asks for the active runtime this way


def start_local(
    rt: Runtime,
    num_cpus: float | None = None,
    num_gpus: float | None = None,
    resources: dict | None = None,
    labels: dict | None = None,
    object_store_memory: int | None = None,
) -> Runtime:
    """Give `rt` its head node (the driver's) and make it the active runtime."""
    rt.add_node(
        num_cpus=DEFAULT_NUM_CPUS if num_cpus is None else num_cpus,
        num_gpus=num_gpus or 0,
        resources=resources,
        labels=labels,
        is_head=True,
        object_store_memory=object_store_memory or DEFAULT_STORE_BYTES,
    )
    activate(rt)
    return rt


def interact(rt: Runtime, live: Callable[[], Any], op: str) -> Any:
    """Run a cluster call: directly from the driver, or journaled (as `op`) inside a body."""
    if rt._current:
        return rt._current[-1].interact(live, op)
    return live()


def activate(rt: Runtime) -> None:
    SESSION.active = rt
    SESSION.last = rt  # what sim.run reports on, even if the scenario shut it down
    if SESSION.patched is None:
        _install()


def deactivate() -> None:
    """Shut the active runtime down (if any) and give the real time and os functions back."""
    rt = SESSION.active
    if rt is not None:
        rt.alive = False
    SESSION.active = None
    saved = SESSION.patched
    if saved is not None:
        for owner, name, original in reversed(saved):
            if original is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
        SESSION.patched = None


def _body() -> BodyRun | None:
    rt = SESSION.active
    if rt is None or not rt._current or threading.current_thread() is not threading.main_thread():
        return None
    return rt._current[-1]


_ABSENT = object()  # a function this platform lacks (os.kill in Pyodide): removed again on deactivate


def _install() -> None:
    real_sleep, real_time, real_mono, real_perf, real_exit = (
        time.sleep,
        time.time,
        time.monotonic,
        time.perf_counter,
        os._exit,
    )
    real_getpid, real_kill = os.getpid, getattr(os, "kill", None)

    def sleep(seconds: float) -> None:
        body = _body()
        if body is not None:
            return body.sleep(seconds)
        rt = SESSION.active
        if rt is not None and threading.current_thread() is threading.main_thread():
            return rt.sleep(seconds)
        return real_sleep(seconds)

    def clock(real: Callable[[], float], base: float) -> Callable[[], float]:
        def read() -> float:
            body = _body()
            if body is None:
                return real()
            # Journaled, so a replayed body reads the same clock it read the first time.
            return body.interact(lambda: base + body.rt.now(), "clock")

        return read

    def exit_(code: int = 0) -> None:
        body = _body()
        if body is not None:  # the process ends here: no cleanup of its reaches the cluster
            raise body.halt(WorkerExit(f"os._exit({code})"))
        real_exit(code)

    real_open = builtins.open

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        body = _body()
        if body is not None and any(c in mode for c in "wax+"):  # a task writing this machine's files
            warn_file_write(file, learner_site(*body.rt.library))
        return real_open(file, mode, *args, **kwargs)

    stand_ins: list[tuple[Any, str, Any]] = [
        (time, "sleep", sleep),
        (time, "time", clock(real_time, EPOCH)),
        (time, "monotonic", clock(real_mono, 0.0)),
        (time, "perf_counter", clock(real_perf, 0.0)),
        (os, "_exit", exit_),
        # Simulated process identity (miniray/process.py): each worker's pid, signals to it.
        (os, "getpid", process.simulated_getpid(real_getpid, _body)),
        (os, "kill", process.simulated_kill(real_kill, real_getpid, current, _body)),
        # Async actor methods (miniray/aio.py): asyncio.sleep in a body spends virtual time.
        (asyncio, "sleep", aio.simulated_sleep(asyncio.sleep, _body)),
        # Files are shared by every simulated worker, unlike Ray's nodes: writing one warns.
        (builtins, "open", open_),
    ]
    SESSION.patched = [(owner, name, getattr(owner, name, _ABSENT)) for owner, name, _ in stand_ins]
    for owner, name, stand_in in stand_ins:
        setattr(owner, name, stand_in)
