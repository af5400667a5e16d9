"""Generator tasks: `num_returns="streaming"` (`ObjectRefGenerator`) and `num_returns="dynamic"`.

A remote generator function (or actor method) streams by default, as in Ray 2.60: `.remote()`
returns an ObjectRefGenerator whose `next()` gives one ObjectRef per `yield`, as soon as that
value exists. Fault tolerance, as Ray does it (recorded in the `generators` scenario):

* an error raised after k yields: the first k refs hold their values, ref k+1 holds the error,
  then the iteration stops;
* the worker dies mid-stream: the task is retried (within max_retries) and runs from the start;
  values already yielded keep their first value, the new attempt's copies of them are dropped,
  and the stream goes on from where it was;
* a yielded value is lost with its node: the whole generator runs again to rebuild it (lineage
  reconstruction), so a generator that yields something different on a second run (time,
  randomness, an external feed) hands back a different value than the one first seen. That is
  why long-running streams of volatile data set max_retries=0 and handle the loss themselves;
* that re-run yields a different number of items than the first successful run (recorded in the
  `generator_replay` scenario): Ray 2.60 fails the stream with
  StreamingGeneratorReplayInconsistentError, at the first item past the count or when a shorter
  re-run ends, and every item of the stream reads as that error from then on (on Ray a node that
  already holds a copy of a rebuilt item may still read it there; miniray fails it everywhere).
  A retry after a crash is no re-run of a finished stream: it is never checked.

Each `yield` is a journaled interaction of the body (miniray/execution.py), so a body that
blocks and is replayed does not yield twice.
"""

from __future__ import annotations

import inspect
from typing import Any

from . import exceptions as exc
from .copying import shared
from .objects import ObjectRef

STREAMING = "streaming"
DYNAMIC = "dynamic"


def mode(fn, num_returns) -> str | None:
    """STREAMING, DYNAMIC, "list" (a generator with a fixed number of returns), or None."""
    if num_returns == STREAMING:
        return STREAMING
    if num_returns == DYNAMIC:
        return DYNAMIC
    gen = inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)
    if not gen:
        return None
    return STREAMING if num_returns is None else "list"


class Stream:
    """The items one generator task has yielded so far, and whether (and how) it ended."""

    def __init__(self, rt, spec) -> None:
        self.rt = rt
        self.spec = spec
        self.oids: list[str] = []
        self.refs: list[ObjectRef | None] = []  # held until handed out by next() or dropped
        self.ended = False
        self.listeners: list = []
        # Items of the first successful run: what a re-run must yield again (None: no run has
        # finished yet, or it yielded nothing, which Ray cannot check against either).
        self.expected: int | None = None
        self.inconsistent = False  # a re-run broke the count: every item is failed

    def put(self, index: int, value: Any, node) -> None:
        objects = self.rt.objects
        if self.inconsistent:
            return
        if self.expected is not None and index >= self.expected:  # a re-run yields one too many
            self._replay_inconsistent(index + 1)
            return
        if index < len(self.oids):  # a retry or a reconstruction yielding an item again
            entry = objects.entries.get(self.oids[index])
            if entry is not None and not objects.available(entry):
                objects.store(entry, value, node)  # rebuilding a lost item: the new run's value
            return
        ref = objects.create(self.spec.owner, self.spec, index)
        self.oids.append(ref.hex())
        self.refs.append(ref)
        self.spec.returns.append(ref.hex())
        objects.store(objects.entries[ref.hex()], value, node)
        self._notify()

    def end(self, error: BaseException | None = None, produced: int | None = None) -> None:
        """The attempt ended (with `error`, or having yielded `produced` items)."""
        if self.ended:
            # A re-run that ended short of the first run's count fails the stream (Ray 2.60 checks
            # only a re-run that ends without an error of its own).
            if error is None and produced is not None and self.expected and not self.inconsistent:
                if produced < self.expected:
                    self._replay_inconsistent(produced)
            return
        if error is None:
            self.expected = len(self.oids) or None
        if error is not None:  # the error becomes one more item, after the values
            ref = self.rt.objects.create(self.spec.owner, self.spec, len(self.oids))
            self.oids.append(ref.hex())
            self.refs.append(ref)
            self.rt.objects.fail(self.rt.objects.entries[ref.hex()], error)
        self.ended = True
        self._notify()

    def _replay_inconsistent(self, produced: int) -> None:
        self.inconsistent = True
        error = exc.StreamingGeneratorReplayInconsistentError(
            f"Streaming generator task {self.spec.task_id} was re-executed and produced {produced} "
            f"objects, expected {self.expected}. The generator output is non-deterministic, which "
            "can hang downstream consumers (when fewer objects are produced) or silently truncate "
            "their input (when more objects are produced)."  # Ray 2.60's words
        )
        objects = self.rt.objects
        for oid in self.oids:
            entry = objects.entries.get(oid)
            if entry is not None:
                objects.stores.forget(entry)  # its value is gone: the error replaces it
                objects.fail(entry, error)

    def _notify(self) -> None:
        listeners, self.listeners = self.listeners, []
        for cb in listeners:
            cb()


def body_for(fn, spec, how: str):
    """The function a worker runs for a generator task: it yields through the stream."""
    rt = spec.rt

    def items(args, kwargs):
        produced = fn(*args, **kwargs)
        if inspect.isasyncgen(produced):
            return _drive_async(produced)
        return produced

    def streaming(*args, **kwargs):
        rt._current[-1].streaming = True
        index = 0
        for value in items(args, kwargs):
            i, v = index, value
            node = rt._current[-1].worker.node
            # Journaled, so a body replayed after it blocked does not yield the item twice.
            rt._current[-1].interact(lambda i=i, v=v, node=node: spec.stream.put(i, v, node), "yield")
            index += 1
        return index  # how many it yielded: a re-run must match the first run (Stream.end)

    def dynamic(*args, **kwargs):
        refs = []
        for value in items(args, kwargs):
            refs.append(_put_item(rt, spec, value))
        return DynamicObjectRefGenerator(refs)

    def as_list(*args, **kwargs):
        return list(items(args, kwargs))

    return {STREAMING: streaming, DYNAMIC: dynamic, "list": as_list}[how]


def _put_item(rt, spec, value) -> ObjectRef:
    def live() -> ObjectRef:
        ref = rt.objects.create(spec.owner, spec, 0)
        rt.objects.store(rt.objects.entries[ref.hex()], value, rt._current[-1].worker.node)
        return ref

    return rt._current[-1].interact(live, "yield")  # journaled, as every cluster call in a body


def _drive_async(agen):
    """Iterate an async generator whose awaits never suspend (there is no event loop here)."""
    while True:
        step = agen.__anext__()
        try:
            step.send(None)
        except StopIteration as done:
            yield done.value
            continue
        except StopAsyncIteration:
            return
        step.close()
        raise TypeError(
            "miniray runs async actor methods without an event loop: an `await` that suspends "
            "(asyncio.sleep, a future) is not supported in a simulated async generator."
        )


@shared
class ObjectRefGenerator:
    """What `.remote()` returns for a streaming generator task: iterate it for ObjectRefs."""

    def __init__(self, stream: Stream):
        self._stream = stream
        self._cursor = 0

    def __iter__(self):
        return self

    def __next__(self) -> ObjectRef:
        rt = self._stream.rt
        if rt._current:
            raise NotImplementedError(
                "miniray iterates an ObjectRefGenerator from the driver only; pass the refs "
                "(or the values) to the task instead."
            )
        rt.run_until(self._ready, None, f"next() on the stream of {self._stream.spec.name}")
        return self._take()

    def _ready(self) -> bool:
        return self._cursor < len(self._stream.oids) or self._stream.ended

    def _take(self) -> ObjectRef:
        stream = self._stream
        if self._cursor >= len(stream.oids):
            raise StopIteration
        i = self._cursor
        self._cursor += 1
        ref = stream.refs[i]
        stream.refs[i] = None  # the caller holds it now; dropping it frees the value, as in Ray
        if ref is None:
            raise exc.ObjectFreedError(stream.oids[i])
        return ref

    def __aiter__(self):
        return self

    async def __anext__(self) -> ObjectRef:
        try:
            return next(self)
        except StopIteration:
            raise StopAsyncIteration from None

    def completed(self):
        """An ObjectRef that is ready when the generator task has finished."""
        raise NotImplementedError("ObjectRefGenerator.completed() is not simulated by miniray.")

    def __del__(self) -> None:
        stream = getattr(self, "_stream", None)
        if stream is not None:
            stream.refs = [None] * len(stream.refs)  # refs never handed out are dropped with it

    def __repr__(self) -> str:
        return "<miniray.ObjectRefGenerator object>"  # Ray prints <ray.ObjectRefGenerator object at 0x...>


class DynamicObjectRefGenerator:
    """What `ray.get` returns for a `num_returns="dynamic"` task: the refs it yielded."""

    def __init__(self, refs: list[ObjectRef]):
        self._refs = list(refs)

    def __iter__(self):
        return iter(self._refs)

    def __len__(self) -> int:
        return len(self._refs)

    def __repr__(self) -> str:
        return f"<DynamicObjectRefGenerator of {len(self._refs)} refs>"
