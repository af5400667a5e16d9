"""The spill cliff (seed 001), as a formula and as a miniray run that must agree with it.

A node's object store holds `live_gb` of blocks, `block_gb` each, created oldest first. One more
`extra_gb` block arrives. If it does not fit, the store spills its oldest blocks to local disk
until it does. Then `readers` tasks each read the oldest block. A read from shared memory costs
nothing; a read from disk costs block / disk bandwidth, and under pressure the block cannot be
restored into memory, so every reader pays again. The node has one disk: readers on several
CPUs share its bandwidth, so the readers together take at least the summed disk time.
(miniray charges each spilled read on its own, in parallel: its measured wall time is shorter
than one disk allows, which `measure` reports as it is and the lesson says.)

    predict(...)  the arithmetic (what the seed does by hand)
    measure(...)  the same workload on a fresh miniray cluster, read back through `ray memory`,
                  the timeline and the golden signals
    sweep(...)    predict() across store fill levels: flat, then a cliff
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

GB = 10**9


@dataclass(frozen=True)
class SpillInputs:
    store_gb: float = 30.0
    live_gb: float = 28.0
    block_gb: float = 2.0
    extra_gb: float = 4.0
    disk_mb_s: float = 500.0
    readers: int = 50
    cpus: int = 4
    threshold: float = 1.0  # spill above this share of the store (miniray's default 1.0; Ray's 0.8)

    @property
    def capacity_gb(self) -> float:
        return self.store_gb * self.threshold

    def check(self) -> None:
        if min(self.store_gb, self.block_gb, self.extra_gb, self.disk_mb_s) <= 0:
            raise ValueError("store_gb, block_gb, extra_gb and disk_mb_s must be > 0")
        if not 0 < self.threshold <= 1:
            raise ValueError("threshold must be in (0, 1]")
        if self.live_gb < 0 or self.readers < 1 or self.cpus < 1:
            raise ValueError("live_gb must be >= 0, readers and cpus >= 1")
        if self.extra_gb > self.capacity_gb:
            raise ValueError("extra_gb must fit in the store on its own (extra_gb <= store_gb * threshold)")
        if self.live_gb > self.store_gb:
            raise ValueError("live_gb must fit in the store before the extra block (live_gb <= store_gb)")
        if abs(self.live_gb / self.block_gb - round(self.live_gb / self.block_gb)) > 1e-9:
            raise ValueError("live_gb must be a whole number of blocks (a multiple of block_gb)")


@dataclass
class SpillResult:
    inputs: SpillInputs
    fill_before_pct: float
    fill_after_pct: float
    spilled_gb: float
    spilled_blocks: int
    read_s: float  # one read of the oldest block
    disk_seconds: float  # summed over every reader
    elapsed_s: float  # wall time for all readers: predict() one disk's; measure() what miniray took
    memory_report: str = ""  # `ray memory` after the readers (measure() only)
    golden: dict = field(default_factory=dict)  # the dashboard's front page (measure() only)


def blocks(inputs: SpillInputs) -> int:
    return round(inputs.live_gb / inputs.block_gb)


def predict(inputs: SpillInputs) -> SpillResult:
    inputs.check()
    over = inputs.live_gb + inputs.extra_gb - inputs.capacity_gb
    spilled_blocks = 0 if over <= 1e-9 else min(blocks(inputs), math.ceil(over / inputs.block_gb - 1e-9))
    spilled = spilled_blocks * inputs.block_gb
    # Before the new block, the oldest blocks past the threshold are already on disk.
    early = max(0, math.ceil((inputs.live_gb - inputs.capacity_gb) / inputs.block_gb - 1e-9))
    read_s = inputs.block_gb * 1000.0 / inputs.disk_mb_s if spilled_blocks else 0.0
    rounds = math.ceil(inputs.readers / inputs.cpus)
    return SpillResult(
        inputs=inputs,
        fill_before_pct=100.0 * (inputs.live_gb - early * inputs.block_gb) / inputs.store_gb,
        fill_after_pct=100.0 * (inputs.live_gb + inputs.extra_gb - spilled) / inputs.store_gb,
        spilled_gb=spilled,
        spilled_blocks=spilled_blocks,
        read_s=read_s,
        disk_seconds=read_s * inputs.readers,
        # One disk serves every reader: the CPUs wait on it, so the disk time is the floor.
        elapsed_s=max(read_s * rounds, read_s * inputs.readers),
    )


def measure(inputs: SpillInputs) -> SpillResult:
    """Run the workload on a fresh one-node miniray cluster and read the tools.

    Like any `ray.init`, it replaces a cluster the notebook already has running (miniray has one
    active cluster at a time), and shuts its own down when done."""
    inputs.check()
    import miniray as ray
    from miniray import sim
    from miniray.util import state

    if ray.is_initialized():
        ray.shutdown()
    sim.set_seed(0)
    ray.init(
        num_cpus=inputs.cpus,
        object_store_memory=int(inputs.store_gb * GB),
        _system_config={
            "object_spilling_read_bytes_per_s": inputs.disk_mb_s * 1e6,
            "object_spilling_threshold": inputs.threshold,
        },
    )
    try:
        signals = sim.metrics()

        @ray.remote(num_cpus=1)
        def read(block):
            return block.nbytes

        refs = [ray.put(sim.Blob(int(inputs.block_gb * GB), f"block{i}")) for i in range(blocks(inputs))]
        fill_before = state.list_nodes()[0]["object_store_fill_pct"]
        sim.sleep(1.0)  # the pipeline runs a second before the new block lands, so the spill has a rate
        extra = ray.put(sim.Blob(int(inputs.extra_gb * GB), "extra"))
        spilled = [r for r in state.memory() if r["where"] == "SPILLED"]
        t0 = sim.now()
        one = ray.get(read.remote(refs[0])) if refs else 0
        read_s = sim.now() - t0
        t1 = sim.now()
        ray.get([read.remote(refs[0] if refs else extra) for _ in range(inputs.readers)])
        elapsed = sim.now() - t1
        report = state.memory()
        del one
        return SpillResult(
            inputs=inputs,
            fill_before_pct=fill_before,
            fill_after_pct=state.list_nodes()[0]["object_store_fill_pct"],
            spilled_gb=sum(r["object_size"] for r in spilled) / GB,
            spilled_blocks=len(spilled),
            read_s=read_s,
            disk_seconds=read_s * inputs.readers,
            elapsed_s=elapsed,
            memory_report=str(report),
            golden=signals.golden(window=sim.now()),
        )
    finally:
        ray.shutdown()


def sweep(inputs: SpillInputs, points: int | None = None) -> list[SpillResult]:
    """predict() for every whole number of blocks that fits in the store before the extra block."""
    most = int(inputs.store_gb // inputs.block_gb)
    out = []
    for n in range(0, most + 1):
        live = n * inputs.block_gb
        out.append(predict(SpillInputs(**{**inputs.__dict__, "live_gb": live})))
    return out if points is None else out[:points]
