# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python (Pyodide)
#     language: python
#     name: python
# ---

# %% [markdown]
# # Lab 11: reading the dashboard
#
# Three slow jobs, three instruments. Each run is a miniray cluster on a virtual clock: a
# 30 GB object store costs your browser nothing, because the blocks are `sim.Blob`s that
# only carry a size. Run this first cell, then work down.

# %%
import time
from collections import Counter

import ipywidgets  # noqa: F401  (the lab loads a package only once a cell imports it by name)
from IPython.display import HTML, display

import miniray as ray
from faultlines.stories import spill
from faultlines.widgets import statechart
from faultlines.widgets.spill_cliff import SpillCliffWidget
from miniray import sim
from miniray.util import state

GB = 10**9

# %% [markdown]
# ## 1. The spill cliff
#
# A node's store holds 30 GB. The pipeline has 28 GB of live 2 GB blocks in it. One more 4 GB
# block arrives; then 50 tasks each read the oldest block. The disk reads 500 MB/s.
#
# **Predict**: how much is spilled? How long does one read of the oldest block take? All 50?

# %%
seed = spill.SpillInputs(store_gb=30, live_gb=28, block_gb=2, extra_gb=4, disk_mb_s=500, readers=50)
run = spill.measure(seed)
print(f"fill before {run.fill_before_pct:.1f} %, after {run.fill_after_pct:.1f} %")
print(f"spilled {run.spilled_gb:g} GB ({run.spilled_blocks} block)")
print(
    f"one read {run.read_s:g} s, {seed.readers} reads {run.disk_seconds:g} s of disk, {run.elapsed_s:g} s wall"
)
print()
print(run.memory_report[run.memory_report.index("--- Aggregate") :])

# %% [markdown]
# The same arithmetic at every fill level: nothing at all, until the new block no longer
# fits, then every reader pays the disk at once.

# %%
print(" live GB   fill %   spilled GB   disk s (50 readers)")
for r in spill.sweep(seed):
    print(f"{r.inputs.live_gb:8g} {r.fill_before_pct:8.1f} {r.spilled_gb:12g} {r.disk_seconds:18g}")

# %% [markdown]
# ## 2. A straggler on the timeline
#
# Ten map tasks, one per partition, then a reduce over their results. One partition is 20
# times larger than the others.
#
# **Predict**: when does the reduce start? What does the timeline look like?

# %%
SKEW = 20

ray.init(num_cpus=10)


@ray.remote
def map_part(part):
    time.sleep(len(part) * 0.02)  # work proportional to the partition's size
    return sum(part)


@ray.remote
def reduce_all(*sums):
    return sum(sums)


parts = [list(range(100 * (SKEW if i == 9 else 1))) for i in range(10)]
total = ray.get(reduce_all.remote(*[map_part.remote(p) for p in parts]))
trace = ray.timeline()  # Chrome trace events: open a saved copy in Perfetto
maps = sorted(e["dur"] / 1e6 for e in trace if e.get("ph") == "X" and e["name"] == "map_part")
print(
    f"map bars: median {maps[len(maps) // 2]:g} s, slowest {maps[-1]:g} s; reduce waited until {sim.now():g} s"
)
display(HTML(statechart.render(statechart.from_trace(trace, "one row per task", ("map_part", "reduce_all")))))
ray.shutdown()

# %% [markdown]
# ## 3. A leaked reference
#
# Each iteration puts a 1 GB block, a task consumes it, and the driver moves on. The driver
# also appends every ref to a list "for later". The store holds 8 GB.
#
# **Predict**: what does the store's fill look like after 12 iterations? What does
# `ray.util.state.list_objects()` (the rows of `ray memory`) show?

# %%
HOLD = True  # set False: the fix

ray.init(num_cpus=2, object_store_memory=8 * GB)
signals = sim.metrics()  # start sampling the golden signals now


@ray.remote
def consume(block):
    time.sleep(0.5)
    return block.nbytes


kept = []
for i in range(12):
    ref = ray.put(sim.Blob(GB, f"it{i}"))
    ray.get(consume.remote(ref))
    if HOLD:
        kept.append(ref)  # the leak: a list that keeps every ref alive
    del ref
    sim.sleep(1.0)
    used = signals.value("object_store_used_bytes", sim.now(), "node:0") / GB
    owned = [r for r in state.list_objects() if r["type"] == "DRIVER"]
    print(f"iteration {i + 1:2}: store holds {used:g} GB, driver owns {len(owned)} refs")

# `ray.util.state.list_objects()` is Ray's state API too (with `ray[default]`). Group its rows by
# call site: on Ray the column says "disabled" unless RAY_record_ref_creation_sites=1 was set
# when the cluster started (the lesson page shows both); miniray always records it.
print()
print(Counter((r["call_site"], r["reference_type"]) for r in state.list_objects() if r["type"] == "DRIVER"))

# %% [markdown]
# ## 4. The golden signals
#
# Before drilling into any of that, a dashboard's front page should answer five questions:
# how full is each store, is it spilling, is work piling up, are actors restarting, and (for
# Serve) what is p99 latency. Here they are for the leak you just ran:

# %%
for name, value in signals.golden(window=sim.now()).items():
    print(f"{name:24} {value}")
ray.shutdown()

# %% [markdown]
# ## 5. The widget: push the store past its capacity
#
# It starts at the story's numbers. Each move reruns the workload on miniray; the curve is the
# arithmetic across fill levels and the dot is the run. Things to try:
#
# * drag **live GB** from 20 to 30: nothing, nothing, nothing, then 200 s of disk;
# * at 28 GB, drag **disk MB/s** to 2000: the cliff is lower but still a cliff;
# * drag **new block GB** to 2: the last fit moves right and 28 GB fits again.

# %%
widget = SpillCliffWidget()
display(widget.box)

# %% [markdown]
# ## 6. Try this
#
# The lesson page says what to expect from each.
#
# 1. **Ray's threshold.** In section 1, add `threshold=0.8` to the inputs.
# 2. **A faster disk.** In the widget, drag *disk MB/s* to 2000.
# 3. **No skew.** In section 2, set `SKEW = 1`.
# 4. **Fix the leak.** In section 3, set `HOLD = False` and rerun it and section 4.
