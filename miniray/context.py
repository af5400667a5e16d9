"""Which runtime is active, and whether the code running now is the driver or a worker's body.

While a runtime is up, `time.sleep`, `time.time`, `time.monotonic`, `time.perf_counter` and
`os._exit` are routed through miniray so Ray scripts run unchanged: inside a task or actor body
they spend virtual time and kill only that simulated worker; in the driver `time.sleep(s)` lets
s virtual seconds pass (as `miniray.sim.sleep`). Other threads get the real functions.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

_state: dict[str, Any] = {"rt": None, "saved": None, "last": None}
EPOCH = 1_767_225_600.0  # 2026-01-01T00:00:00Z: virtual time 0 as a wall-clock reading


def current():
    return _state["rt"]


def require(what: str):
    """The active runtime, for simulation-only calls that must not start one implicitly."""
    rt = _state["rt"]
    if rt is None:
        raise RuntimeError(
            f"miniray is not initialized: call miniray.init() (or create a "
            f"miniray.cluster_utils.Cluster) before {what}."
        )
    return rt


def runtime(what: str):
    rt = _state["rt"]
    if rt is None:
        from . import api

        api.init()  # as Ray does: the first remote call starts a local cluster
        rt = _state["rt"]
    return rt


def interact(rt, live: Callable[[], Any]) -> Any:
    """Run a cluster call: directly from the driver, or journaled when made inside a body."""
    if rt.current:
        return rt.current[-1].interact(live)
    return live()


def activate(rt) -> None:
    _state["rt"] = rt
    _state["last"] = rt  # what sim.run reports on, even if the scenario shut it down
    if _state["saved"] is None:
        _install()
        from . import aio, process

        process.install()  # hook: os.getpid / os.kill for simulated workers (miniray/process.py)
        aio.install()  # hook: asyncio.sleep in async actor methods (miniray/aio.py)


def deactivate() -> None:
    _state["rt"] = None
    saved = _state["saved"]
    if saved is not None:
        time.sleep, time.time, time.monotonic, time.perf_counter, os._exit = saved
        _state["saved"] = None
        from . import aio, process

        process.uninstall()
        aio.uninstall()


def _body():
    rt = _state["rt"]
    if rt is None or not rt.current or threading.current_thread() is not threading.main_thread():
        return None
    return rt.current[-1]


def _install() -> None:
    real_sleep, real_time, real_mono, real_perf, real_exit = saved = (
        time.sleep,
        time.time,
        time.monotonic,
        time.perf_counter,
        os._exit,
    )
    _state["saved"] = saved

    def sleep(seconds: float) -> None:
        body = _body()
        if body is not None:
            return body.sleep(seconds)
        rt = _state["rt"]
        if rt is not None and threading.current_thread() is threading.main_thread():
            from . import sim

            return sim.sleep(seconds)
        return real_sleep(seconds)

    def clock(real: Callable[[], float], base: float) -> Callable[[], float]:
        def read() -> float:
            body = _body()
            if body is None:
                return real()
            # Journaled, so a replayed body reads the same clock it read the first time.
            return body.interact(lambda: base + _state["rt"].kernel.now)

        return read

    def exit_(code: int = 0) -> None:
        body = _body()
        if body is not None:
            from .execution import WorkerExit

            raise WorkerExit(f"os._exit({code})")
        real_exit(code)

    time.sleep = sleep
    time.time = clock(real_time, EPOCH)
    time.monotonic = clock(real_mono, 0.0)
    time.perf_counter = clock(real_perf, 0.0)
    os._exit = exit_
