"""fault16 checks: a streaming generator and a task that draws random numbers give the consumer
the same values however often Ray re-runs them.

The learner's `build(feed, seed)` returns a stream (an ObjectRefGenerator of the feed's first
four readings, each a 120 kB block) and the noise (120 kB drawn from `seed`). The driver collects
the stream's refs without reading them, lets a downstream step run on every worker (the window in
which a node loss loses the only copy), then reads everything.

The classes the statement names, and where each is drawn: a re-execution of the generator by a
retry (the search crashes its attempt before each of its steps: a yield, a feed read, a sleep)
and by lineage after its node is lost (the search loses either worker after every event), and
the same two for the noise task; external state that moves while the job runs (the feed gains a
reading every second from 1 s on, so a re-run that reads "what has arrived" sees more); a seed
that changes between runs (the clock, a process id); the random tier mixes a crash and a loss.
"""

from __future__ import annotations

import random
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from miniray import sim
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

checks = Checks()
SIZE = 120_000  # bytes: above the inline limit, so a value lives in its node's object store
SEED = 16
COUNT = 4  # readings the stream must yield
READINGS = [10 * (i + 1) for i in range(12)]  # the feed's readings, in order: 10, 20, 30, ...
AT_START = 4  # readings that have arrived when the job starts; one more each second from 1 s


def expected_item(i: int) -> bytes:
    return bytes([READINGS[i]]) * SIZE


def expected_noise() -> bytes:
    return random.Random(SEED).randbytes(SIZE)


class Feed(Service):
    """A sensor feed outside the cluster (a simulated service; every read is journaled, so a body
    replayed by miniray reads the same answer, and a re-run reads again).

        feed.arrived()    the readings that have arrived by now, oldest first: the list grows
        feed.reading(i)   reading number i (0 is the first): the same value whenever it is read
    """

    def __init__(self, services: Any) -> None:
        self._svc = services

    def arrived(self) -> list[int]:
        since = sim.now() - _START[0]  # virtual seconds since the job started (journaled in a body)
        count = min(len(READINGS), AT_START + max(0, int(since)))
        return self._svc.call("feed", "arrived", str(count), lambda: READINGS[:count])

    def reading(self, i: int) -> int:
        if not isinstance(i, int) or not 0 <= i < len(READINGS):
            raise IndexError(f"the feed has readings 0 to {len(READINGS) - 1}, not {i!r}")
        return self._svc.call("feed", "reading", str(i), lambda: READINGS[i])


_START = [0.0]  # the virtual time the scenario began at (the scenario sets it)


def _read(ref: Any) -> tuple[str, Any]:
    if not isinstance(ref, ray.ObjectRef):
        return ("error", f"a {type(ref).__name__}, not an ObjectRef")
    try:
        return ("value", ray.get(ref))
    except Exception as e:
        first = str(e).strip().splitlines()
        return ("error", f"{type(e).__name__}: {first[0] if first else ''}")


def _collect(stream: Any) -> tuple[list, str | None]:
    if isinstance(stream, ray.ObjectRef):  # a task that returned once: say what it returned or raised
        try:
            said = f"a {type(ray.get(stream)).__name__}"
        except Exception as e:
            lines = [line for line in str(e).strip().splitlines() if line.strip()]
            said = f"{type(e).__name__}: {lines[-1].strip() if lines else ''}"
        return [], f"'stream' is one ObjectRef, not a streaming generator's refs: its task gave {said}"
    refs: list = []
    try:
        for ref in stream:
            refs.append(ref)
            if len(refs) > len(READINGS):
                return refs, f"the stream gave more than {len(READINGS)} items"
    except Exception as e:
        return refs, f"iterating the stream raised {type(e).__name__}: {str(e).strip()[:200]}"
    return refs, None


@checks.scenario("replayed")
def replayed(sub: Any, ctx: Any) -> dict:
    cluster = ctx.cluster(workers=2, cpus_per_worker=2)
    _START[0] = sim.now()
    node_ids = [n.node_id for n in cluster.worker_nodes]
    out = sub.build(Feed(ctx.services), SEED)
    if not isinstance(out, dict) or set(out) != {"stream", "noise"}:
        got = sorted(out) if isinstance(out, dict) else type(out).__name__
        return {"shape": f"build() returned {got}; expected a dict with keys ['noise', 'stream']"}
    refs, trouble = _collect(out["stream"])
    noise = out["noise"]
    made = [r for r in refs + [noise] if isinstance(r, ray.ObjectRef)]
    ray.wait(made, num_returns=len(made), fetch_local=False)  # made, not read: one copy each

    @ray.remote(max_retries=3)
    def downstream(step: int) -> int:
        time.sleep(1.0)  # while the values sit in the stores: a loss here loses their only copy
        return step

    affinity = [NodeAffinitySchedulingStrategy(node_id, soft=True) for node_id in node_ids]
    ray.get([downstream.options(scheduling_strategy=s).remote(i) for i, s in enumerate(affinity)])
    reads = [[_read(ref) for ref in refs] + [_read(noise)]]
    time.sleep(3.0)  # a re-run the reads started goes on: read everything again once it is done
    reads.append([_read(ref) for ref in refs] + [_read(noise)])
    del made, refs, noise, out  # freed in a fixed order, whichever Python runs this
    return {"reads": reads, "trouble": trouble}


PASSES = ("", ", read again at the end,")


def _describe(value: Any, want: bytes) -> str:
    if not isinstance(value, bytes | bytearray):
        return f"a {type(value).__name__}, not bytes"
    if len(value) != len(want):
        return f"{len(value)} bytes, expected {len(want)}"
    if value[:1] != want[:1]:
        return f"bytes of reading {value[0]}, expected reading {want[0]}"
    return "other bytes than a run with no fault gives"


@checks.invariant("stream-complete")
def complete(outcome: dict, ctx: Any) -> list[str] | list[Broken]:
    """The stream yields the feed's first four readings and no more, and every item can be read
    after any one re-run of the generator (a retry after a crash, or a rebuild after a node loss)."""
    if "shape" in outcome:
        return [outcome["shape"]]
    broken: list = [
        Broken(f"item {i} of the stream{when} is gone: ray.get raised {detail}", final=True)
        for reads, when in zip(outcome["reads"], PASSES)
        for i, (kind, detail) in enumerate(reads[:-1])
        if kind == "error"
    ]
    if outcome["trouble"]:
        broken.append(outcome["trouble"])
    elif len(outcome["reads"][0]) - 1 != COUNT:
        broken.append(f"the stream gave {len(outcome['reads'][0]) - 1} items, expected {COUNT}")
    return broken[:1]


@checks.invariant("stream-values")
def stream_values(outcome: dict, ctx: Any) -> list[str]:
    """Item i of the stream holds the feed's reading i, on every read: the values a run with no
    fault gives, even after the generator ran again."""
    if "shape" in outcome:
        return []
    wrong = [
        f"item {i} of the stream{when} is {_describe(value, expected_item(i))}"
        for reads, when in zip(outcome["reads"], PASSES)
        for i, (kind, value) in enumerate(reads[:-1][:COUNT])
        if kind == "value" and value != expected_item(i)
    ]
    return wrong[:1]


@checks.invariant("noise-repeats")
def noise_repeats(outcome: dict, ctx: Any) -> list[str] | list[Broken]:
    """The noise is what random.Random(seed).randbytes(120_000) draws for the seed build() is
    given, whether it was read from its first run, a retry or a rebuild."""
    if "shape" in outcome:
        return []
    for reads, when in zip(outcome["reads"], PASSES):
        kind, value = reads[-1]
        if kind == "error":
            return [Broken(f"the noise{when} is gone: ray.get raised {value}", final=True)]
        if value != expected_noise():
            runs = len(ctx.reading.attempts("noise"))
            ran = "in a run where noise ran once" if runs == 1 else f"after noise ran {runs} times"
            return [f"the noise{when} is not the bytes random.Random({SEED}) draws, {ran}"]
    return []
