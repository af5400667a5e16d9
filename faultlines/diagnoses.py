"""The dashboard-reading case study's three diagnoses (lesson 11) as runnable scenarios.

Each builds a fresh cluster, runs, and returns the numbers a learner would read off the tools:
    spill_cliff   the object store fills; past its size, reads fall off the zero-copy path at once
    straggler     one skewed partition makes one map bar 20x longer while the reduce waits
    leak          refs held in a growing list keep the store climbing; dropping them keeps it flat
Sizes are `Blob`s, so 30 GB stores cost the host nothing. Every run is deterministic.
"""

from __future__ import annotations

import time

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.observe import Blob, metrics, timeline
from miniray.util import state

GB = 10**9
DISK_BYTES_PER_S = 500e6  # miniray's default spilled-read speed: the seed's 500 MB/s SSD


def _cluster(store_bytes: int, cpus: int = 4, **config):
    sim.set_seed(0)
    c = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": cpus, "object_store_memory": store_bytes, "_system_config": config},
    )
    ray.init(address=c.address)
    return c


def _close(c) -> None:
    ray.shutdown()
    c.shutdown()


def _slices(name: str) -> list[dict]:
    return [e for e in timeline() if e["ph"] == "X" and e["name"] == name]


def spill_cliff(
    live_blocks: int = 14, block: int = 2 * GB, extra: int = 4 * GB, store: int = 30 * GB, readers: int = 50
) -> dict:
    """The seed's worked number: 28 GB live in a 30 GB store, add a 4 GB block, then `readers`
    tasks each read the block that was spilled to make room (2 GB at 500 MB/s: 4 s a touch)."""
    c = _cluster(store)
    try:
        m = metrics()

        @ray.remote(num_cpus=1)
        def read(block):
            return block.nbytes

        refs = [ray.put(Blob(block, f"b{i}")) for i in range(live_blocks)]
        before = {
            "fill_pct": m.value("object_store_fill_pct", sim.now(), "node:0"),
            "read_s": _read_all(read, refs[:1]),
        }
        big = ray.put(Blob(extra, "extra"))
        spilled = [r for r in state.memory() if r["where"] == "SPILLED"]
        t0 = sim.now()
        restored_before = sum(s["restored_total"] for s in state.memory().stores)
        ray.get([read.remote(refs[0]) for _ in range(readers)])
        restored = sum(s["restored_total"] for s in state.memory().stores) - restored_before
        reads = _slices("read")[-readers:]
        out = {
            "before": before,
            "after_fill_pct": m.value("object_store_fill_pct", sim.now(), "node:0"),
            "spilled_bytes": sum(r["object_size"] for r in spilled),
            "spilled_objects": len(spilled),
            # What each reader waited for the disk: its own read, after the reads queued before it.
            "read_s_each": [e["args"].get("spilled_read_s", 0.0) for e in reads],
            # How long the node's one disk was busy reading: the bytes it read back, at its speed.
            "disk_seconds": restored / DISK_BYTES_PER_S,
            "elapsed_s": sim.now() - t0,
            "in_memory_read_s": _read_all(read, [big]),
        }
        return out
    finally:
        _close(c)


def _read_all(read, refs) -> float:
    """Virtual seconds for one task per ref to read it, one after another."""
    total = 0.0
    for ref in refs:
        t0 = sim.now()
        ray.get(read.remote(ref))
        total += sim.now() - t0
    return total


def spill_sweep(store: int = 10 * GB, block: int = GB, max_blocks: int = 14) -> list[dict]:
    """Fill % and the time for one task to read back the first block, for 1..max_blocks blocks:
    flat at zero while everything fits, then one block's disk read at once (the cliff)."""
    rows = []
    for n in range(1, max_blocks + 1):
        c = _cluster(store)
        try:

            @ray.remote
            def read(block):
                return block.nbytes

            refs = [ray.put(Blob(block, f"b{i}")) for i in range(n)]
            stats = state.list_nodes()[0]
            rows.append(
                {
                    "blocks": n,
                    "live_bytes": n * block,
                    "fill_pct": stats["object_store_fill_pct"],
                    "spilled_bytes": stats["spilled_bytes"],
                    "read_s": _read_all(read, refs[:1]),
                }
            )
        finally:
            _close(c)
    return rows


def straggler(partitions: int = 10, items: int = 100, skew: int = 20, per_item_s: float = 0.02) -> dict:
    """Map over partitions (one `skew` times larger), then reduce: the timeline shows one long bar."""
    c = _cluster(2 * GB, cpus=partitions)
    try:

        @ray.remote
        def map_part(part):
            time.sleep(len(part) * per_item_s)  # work proportional to the partition's size
            return sum(part)

        @ray.remote
        def reduce_all(*sums):
            return sum(sums)

        parts = [list(range(items * (skew if i == partitions - 1 else 1))) for i in range(partitions)]
        total = ray.get(reduce_all.remote(*[map_part.remote(p) for p in parts]))
        maps = _slices("map_part")
        red = _slices("reduce_all")[0]
        durs = sorted(e["dur"] / 1e6 for e in maps)
        return {
            "total": total,
            "map_s": [e["dur"] / 1e6 for e in maps],
            "median_map_s": durs[len(durs) // 2],
            "slowest_map_s": durs[-1],
            "reduce_starts_s": red["ts"] / 1e6,
            "straggler_ratio": durs[-1] / durs[len(durs) // 2],
        }
    finally:
        _close(c)


def leak(iterations: int = 12, block: int = GB, store: int = 8 * GB, hold: bool = True) -> dict:
    """Each iteration puts a block and a task consumes it; `hold=True` keeps every ref in a list."""
    c = _cluster(store)
    try:
        m = metrics()

        @ray.remote
        def consume(block):
            time.sleep(0.5)  # some work on the block, so the store holds it for a while
            return block.nbytes

        kept, used, refs_owned, times = [], [], [], []
        for i in range(iterations):
            ref = ray.put(Blob(block, f"it{i}"))
            ray.get(consume.remote(ref))
            if hold:
                kept.append(ref)  # the bug: a list that holds every ref ever made
            del ref
            sim.sleep(1.0)
            times.append(sim.now())
            used.append(m.value("object_store_used_bytes", sim.now(), "node:0"))
            refs_owned.append(sum(1 for r in state.memory() if r["type"] == "DRIVER"))
        return {
            "used_bytes": used,
            "driver_refs": refs_owned,
            "times": times,
            "spilled_bytes": m.value("spilled_bytes", sim.now(), "node:0"),
            "fill_pct": m.series("object_store_fill_pct", "node:0"),
            "report": str(state.memory()),
        }
    finally:
        _close(c)
