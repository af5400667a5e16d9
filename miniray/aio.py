"""Async actor methods (`async def`) on a simulator without an event loop.

Ray runs an async actor's methods on an asyncio loop in the actor's process. miniray runs the
coroutine to its end inside the worker's body: `await asyncio.sleep(s)` there spends s virtual
seconds (a body's sleep, replayed like `time.sleep`), and awaiting a miniray ObjectRef gets it.
An await on anything else that would suspend (a real future, a lock another task holds) is
refused with a TypeError: there is no loop to resume it.

`ray.cancel` on a running async method raises asyncio.CancelledError at its pending await, as
Ray does, so the method's `except asyncio.CancelledError` clean-up runs.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any


def simulated_sleep(real_sleep: Callable[..., Any], body_of: Callable[[], Any]) -> Callable[..., Any]:
    """`asyncio.sleep` while a runtime is up (installed by miniray.context): virtual time in a body."""

    async def sleep(delay: float, result: Any = None) -> Any:
        body = body_of()
        if body is None:
            return await real_sleep(delay, result)
        body.sleep(delay)
        return result

    return sleep


def run_coroutine(coro) -> Any:
    """Run `coro` to its end now; its awaits must all complete without suspending."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise TypeError(
        "miniray runs async actor methods without an event loop: this method awaited something "
        "that suspends (only asyncio.sleep and ObjectRefs are simulated)."
    )


def is_async_method(cls, name: str) -> bool:
    return inspect.iscoroutinefunction(getattr(cls, name, None))


def cancel_running(body) -> None:
    """Raise asyncio.CancelledError at the await where the body is blocked now."""
    for timer in body.timers:
        timer.cancel()
    body.resume(False, asyncio.CancelledError())
