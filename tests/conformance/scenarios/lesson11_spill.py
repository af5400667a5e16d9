"""Lesson 11's story, small enough for this machine: blocks that overflow a node's object store.

Ray 2.60 spills referenced objects to the node's disk when its store fills; it does not evict
them. Here a 100 MB store receives four 30 MB blocks, all still referenced. Observed: some blocks
are spilled, nothing fails, and the oldest block, read back from disk, is intact.
"""

import os

STORE = 100 * 1024 * 1024
BLOCK = 30 * 1024 * 1024


def run(ray, cluster_utils, workdir):
    spill_dir = os.path.join(workdir, "spill")
    if _miniray(ray):
        ray.init(num_cpus=1, object_store_memory=STORE)
    else:
        ray.init(num_cpus=1, object_store_memory=STORE, object_spilling_directory=spill_dir)
    try:
        blocks = [ray.put(_block(ray, i)) for i in range(4)]
        return {
            "some_blocks_spilled": _spilled(ray, spill_dir) > 0,
            "oldest_block_intact": _intact(ray, ray.get(blocks[0]), 0),
        }
    finally:
        ray.shutdown()


def _miniray(ray):
    return ray.__name__.split(".")[0] == "miniray"


def _block(ray, i):
    """A block of BLOCK bytes, all equal to i. miniray stands for one with a sized blob (the
    Pyodide runs of the scenarios cannot hold real hundreds of megabytes)."""
    if _miniray(ray):
        from miniray import sim

        return sim.Blob(BLOCK, f"block{i}")
    return bytes([i]) * BLOCK


def _intact(ray, value, i):
    if _miniray(ray):
        return value.nbytes == BLOCK and value.tag == f"block{i}"
    return len(value) == BLOCK and value.count(i) == BLOCK


def _spilled(ray, spill_dir):
    """How many objects went to disk: miniray's `ray memory` rows, Ray's spill files."""
    if _miniray(ray):
        from miniray.util import state

        return sum(1 for row in state.memory() if row["where"] == "SPILLED")
    return sum(len(files) for _, _, files in os.walk(spill_dir))
