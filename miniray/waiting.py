"""What `ray.get` and `ray.wait` do once their arguments are checked: wait for objects to settle.

The driver waits by running events (`Runtime.run_until`) until the objects settle or the timeout
passes. A body cannot run events: it registers wake-ups on the objects it needs, unwinds
(`BodyRun.block`) and is run again with the answer journaled (see execution.py). Either way a
read of spilled objects costs the disk's virtual time (`ObjectTable.fetch_cost`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import exceptions as exc
from .copying import thaw
from .execution import BodyRun, Suspended
from .generators import ObjectRefGenerator
from .objects import ObjectRef
from .runtime import Runtime
from .waitable import Event

Outcome = tuple[str, Any]  # ("value", v) or ("error", e), as ObjectTable.resolve returns


def outcome(rt: Runtime, ref: ObjectRef) -> Outcome | None:
    entry = rt.objects.entries.get(ref.hex())
    if entry is None:
        return ("error", exc.ObjectFreedError(ref.hex()))
    return rt.objects.resolve(entry)


class _Timeout:
    """Journaled when a get inside a body times out, so the replay raises at the same point."""


def _timeout_error(timeout: float | None) -> exc.GetTimeoutError:
    return exc.GetTimeoutError("Get timed out: some object(s) not ready.")  # Ray 2.60's words


def get(rt: Runtime, refs: list[ObjectRef], timeout: float | None) -> list:
    """The values of `refs` in order, or raise the first error among them."""
    if rt._current:
        body = rt._current[-1]

        def live():
            outcomes = [outcome(rt, r) for r in refs]
            if all(o is not None for o in outcomes):
                values = _values(outcomes)
                rt.objects.stores.copy_args(refs, body.worker.node)  # the reader's node keeps a copy
                _read_spilled(rt, body, refs, values)
                return values
            _wait_in_body(rt, body, refs, len(refs), timeout, "get")

        values = body.interact(live, "get")
        if isinstance(values, _Timeout):
            raise _timeout_error(timeout)
        return [thaw(v) for v in values]  # journaled frozen: a re-run gets fresh copies too

    outcomes: list = [None] * len(refs)
    cursor = [0]

    def done() -> bool:
        while cursor[0] < len(refs):
            got = outcome(rt, refs[cursor[0]])
            if got is None:
                return False
            outcomes[cursor[0]] = got
            cursor[0] += 1
        return True

    what = f"miniray.get is waiting for {refs[min(cursor[0], len(refs) - 1)]!r}"
    if not rt.run_until(done, timeout, what):
        raise _timeout_error(timeout)
    values = _values(outcomes)
    cost = rt.objects.stores.fetch_cost(refs)
    rt.objects.stores.copy_args(refs, rt.caller().node)  # as Ray, the driver's node keeps a copy
    if cost:  # the driver reads spilled objects from disk too: that much virtual time passes
        rt.sleep(cost)
    return [thaw(v) for v in values]


def wait(
    rt: Runtime, refs: list[ObjectRef], num_returns: int, timeout: float | None, fetch_local: bool = True
) -> tuple[list, list]:
    """(ready, not_ready) once `num_returns` of `refs` settled or the timeout passed. With
    `fetch_local` (Ray's default) the ready objects are pulled to the caller's node, as a get would."""
    if rt._current:
        body = rt._current[-1]

        def live():
            outcomes = [outcome(rt, r) for r in refs]
            if sum(o is not None for o in outcomes) >= num_returns or timeout == 0:
                ready = split(refs, num_returns, outcomes)
                if fetch_local:
                    rt.objects.stores.copy_args(ready[0], body.worker.node)
                return ready
            _wait_in_body(rt, body, refs, num_returns, timeout, "wait", fetch_local)

        return body.interact(live, "wait")

    def count() -> int:
        return sum(outcome(rt, r) is not None for r in refs)

    rt.run_until(
        lambda: count() >= num_returns,
        timeout,
        f"miniray.wait is waiting for {num_returns} of {len(refs)} objects",
    )
    ready = split(refs, num_returns, [outcome(rt, r) for r in refs])
    if fetch_local:
        rt.objects.stores.copy_args(ready[0], rt.caller().node)
    return ready


def _values(outcomes: list) -> list:
    """The values in order, or raise the first error. No frame may keep the exception it raises:
    with its traceback that is a cycle holding the frames' refs until the garbage collector runs,
    so objects would be freed at GC-dependent times."""
    for i in range(len(outcomes)):
        if outcomes[i][0] == "error":
            error = outcomes[i][1]
            outcomes.clear()
            try:
                raise error
            finally:
                error = None
    return [value for _, value in outcomes]


def _read_spilled(rt: Runtime, body: BodyRun, refs: list[ObjectRef], values: list) -> None:
    """A body's get of spilled objects takes the disk read's virtual time, like a sleep."""
    cost = rt.objects.stores.fetch_cost(refs)
    if not cost:
        return
    wake = rt.now() + cost
    if rt.advance_quietly(wake):  # nothing happens meanwhile: just move the clock
        return
    body.timers.append(rt.call_at(wake, body.resume, True, values, label="spill-read"))
    rt.lending.lend(body)  # blocked in the get while the disk reads, as Ray's restore is
    body.block(f"reading {cost:.3f}s of spilled objects from disk")


def _wait_in_body(
    rt: Runtime,
    body: BodyRun,
    refs: list[ObjectRef],
    num_returns: int,
    timeout: float | None,
    fn: str,
    fetch_local: bool = True,
) -> None:
    """Register wake-ups for a body blocked in get/wait; the resumed body re-checks."""
    waiter = _Waiter(rt, body, refs, num_returns, fn, fetch_local)
    waiter.wake()
    if not waiter.answered.triggered:
        if timeout is not None:
            body.timers.append(rt.call_later(timeout, waiter.expire, label="get-timeout"))
        rt.lending.lend(body)  # a task blocked in get/wait gives its CPU back (miniray/blocking.py)
        body.block(f"{fn}({', '.join(repr(r) for r in refs[:3])}{'...' if len(refs) > 3 else ''})")
    # A wake that fired synchronously already journaled the answer: replay it now.
    raise Suspended()


class _Waiter:
    """A body blocked in get/wait on `refs`. Any change to any of the objects re-reads them all,
    in order (a read may start rebuilding a lost one), and the first of "enough are ready" and
    the timeout answers the body, once."""

    __slots__ = ("rt", "body", "refs", "num_returns", "fn", "fetch_local", "answered")

    def __init__(
        self, rt: Runtime, body: BodyRun, refs: list[ObjectRef], num_returns: int, fn: str, fetch_local: bool
    ):
        self.rt, self.body, self.refs = rt, body, refs
        self.num_returns, self.fn, self.fetch_local = num_returns, fn, fetch_local
        self.answered = Event()

    def wake(self, *_: Any) -> None:
        if self.answered.triggered or not self.body.live:
            return
        rt, refs = self.rt, self.refs
        ready = [r for r in refs if outcome(rt, r) is not None]
        if len(ready) >= self.num_returns:
            self.answered.succeed()
            try:
                self.answer(outcome(rt, r) for r in refs)
            finally:
                # The objects' wake-up lists hold this waiter until they change: empty the list it
                # holds so its refs are freed when the program drops them, not later.
                refs[:] = []
            return
        wake = self.wake
        for r in refs:
            entry = rt.objects.entries.get(r.hex())
            if (
                entry is not None
                and rt.objects.resolve(entry) is None
                and wake not in entry.changed.callbacks
            ):
                entry.changed.add(wake)

    def expire(self) -> None:
        if self.answered.triggered or not self.body.live:
            return
        self.answered.succeed()
        if self.fn == "get":
            self.body.resume(True, _Timeout())
        else:
            self.body.resume(True, self.split_fetched([outcome(self.rt, r) for r in self.refs]))
        self.refs[:] = []

    def answer(self, outcomes: Iterable[Outcome | None]) -> None:
        settled = list(outcomes)
        body, refs, stores = self.body, self.refs, self.rt.objects.stores
        if self.fn != "get":
            body.resume(True, self.split_fetched(settled))
            return
        for kind, value in settled:  # type: ignore[misc]
            if kind == "error":
                body.resume(False, value)
                return
        values = [value for _, value in settled]  # type: ignore[misc]
        cost = stores.fetch_cost(refs)  # spilled ones among them are read from disk
        stores.copy_args(refs, body.worker.node)  # the reader's node keeps a copy
        if cost:
            body.timers.append(self.rt.call_later(cost, body.resume, True, values, label="spill-read"))
        else:
            body.resume(True, values)

    def split_fetched(self, outcomes: list) -> tuple[list, list]:
        ready = split(self.refs, self.num_returns, outcomes)
        if self.fetch_local:
            self.rt.objects.stores.copy_args(ready[0], self.body.worker.node)
        return ready


def split(refs: list[ObjectRef], num_returns: int, outcomes: list) -> tuple[list, list]:
    ready: list[ObjectRef] = []
    not_ready: list[ObjectRef] = []
    for ref, got in zip(refs, outcomes):
        (ready if got is not None and len(ready) < num_returns else not_ready).append(ref)
    return ready, not_ready


def wait_generators(rt: Runtime, items: list, num_returns: int, timeout: float | None) -> tuple[list, list]:
    """`ray.wait` over refs and streaming generators: a generator is ready when its next item is."""
    if rt._current:
        raise NotImplementedError("miniray waits on an ObjectRefGenerator from the driver only.")

    def ready(item: Any) -> bool:
        if isinstance(item, ObjectRefGenerator):
            return item._ready()
        return outcome(rt, item) is not None

    rt.run_until(
        lambda: sum(ready(i) for i in items) >= num_returns,
        timeout,
        f"miniray.wait is waiting for {num_returns} of {len(items)} objects or generators",
    )
    done: list = []
    pending: list = []
    for item in items:
        (done if ready(item) and len(done) < num_returns else pending).append(item)
    return done, pending
