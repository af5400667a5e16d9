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
# # Lab 1: the mini-runtime
#
# Everything here runs in a simulated Ray cluster, inside this page. Run the cells in order
# (Shift+Enter). Before each run, say out loud what you expect; the lesson page has the answers.

# %%
import time

import miniray as ray
from miniray import sim

ray.init(num_cpus=2)


@ray.remote
def double(x):
    time.sleep(1)  # one second of *virtual* time: the cell returns at once
    return 2 * x


refs = [double.remote(i) for i in range(4)]
refs[0]

# %% [markdown]
# `refs[0]` is an `ObjectRef`: a promise, handed back before the task has run.
#
# **Predict.** Four tasks of one second each, on a cluster with two CPUs. What will `sim.now()`
# say after `ray.get` returns?

# %%
print(ray.get(refs))

# %%
print("finished at t =", sim.now(), "s of virtual time")

# %% [markdown]
# Every ref has an **owner**: the worker that created it. Here that is the driver (this notebook).
# `ray.util.state.list_objects()` is Ray's state API (on Ray it needs `ray[default]`): one row
# per object, with its owner's type and pid. Small values (under 100 KiB) live inline with their
# owner, not in a node's store.

# %%
from miniray.util import state  # on Ray: from ray.util import state

for row in state.list_objects():
    print(row["object_id"][:12], row["type"], row["pid"], row["object_size"], "bytes", row["reference_type"])

# %% [markdown]
# ## The event log
#
# Each line is one event: the virtual time, what happened, and its fields. `task#3/1` means
# the third call of `task`, first attempt. Find the moment the third and fourth tasks start.

# %%
print(sim.log_text())

# %% [markdown]
# ## The timeline
#
# `ray.timeline()` returns the run as a Chrome trace, as in Ray (open the JSON in Perfetto).
# `faultlines.timeline` draws it as lanes: one row per worker, one bar per attempt.

# %%
from faultlines.timeline import from_trace, render_text

lanes = from_trace(ray.timeline())
print(render_text(lanes))
ray.shutdown()

# %% [markdown]
# ## Break it
#
# Now two worker nodes with two CPUs each, and six tasks. `sim.run` starts a fresh cluster,
# runs the function, and keeps what happened. The fault `kill_node node:1 at=1.5` kills the
# first worker node 1.5 virtual seconds in.
#
# **Predict.** Which task is running on `node:1` at t = 1.5 s? Does `ray.get` raise, or return
# all six squares? When does the run finish?

# %%
# faultlines/stories/squares.py
from miniray.cluster_utils import Cluster


def squares(n: int = 6, max_retries: int = 3) -> list[int]:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    cluster.add_node(num_cpus=2)  # node:1
    cluster.add_node(num_cpus=2)  # node:2
    ray.init(address=cluster.address)

    @ray.remote(max_retries=max_retries)  # 3 is Ray's default for tasks
    def square(x):
        time.sleep(1)  # one second of virtual time
        return x * x

    refs = [square.remote(i) for i in range(n)]
    return ray.get(refs)


# %%
clean = sim.run(squares, seed=0)
broken = sim.run(squares, seed=0, faults=["kill_node node:1 at=1.5"])
for name, run in (("without the fault", clean), ("with the fault", broken)):
    attempts = run.log_text.count("task.start")
    print(f"{name:>17}: {run.value} at t = {run.virtual_time:g} s, {attempts} attempts")
print(render_text(from_trace(ray.timeline())))  # the timeline of the last run
print("recovered:", broken.value == clean.value, "| replay with", broken.token())

# %% [markdown]
# The log tells the story line by line: the fault, the node's death, the failed attempt
# (`retry=True`), and the second attempt (`/2`) on the surviving node.

# %%
print("\n".join(line for line in broken.log_text.splitlines() if "object.free" not in line))

# %% [markdown]
# ## Step through it
#
# The debugger draws the same run: a lane per node, and under it one per worker process. Its
# *Virtual time* slider (or ← and →) moves one event at a time and shows the cluster as it was
# then. *Remove fault kill_node node:1 at=1.5* runs the story again without the fault. A failing
# `check()` in an exercise opens the same debugger on your own code.

# %%
from faultlines import notebook as fl

fl.debug(broken, squares)

# %% [markdown]
# ## Same seed, same run
#
# A fault schedule and a seed fully decide a run. Run it again and compare the logs byte for
# byte. Then change `seed=0` to another number: does anything change in this run? Why not?

# %%
again = sim.run(squares, seed=0, faults=["kill_node node:1 at=1.5"])
print("identical log:", again.log_text == broken.log_text, f"({len(again.log_text)} characters)")

# %% [markdown]
# ## Move the fault
#
# Drag the slider (or focus it and use the arrow keys). Each move re-runs `squares` with the
# fault at a new time. Find the kill time that delays the job most, and one that costs nothing.

# %%
import ipywidgets  # noqa: F401  (the lab installs a package when a cell imports it)

from faultlines.widgets.fault_time import fault_time

fault_time(squares)

# %% [markdown]
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **No retries.** Run the story with `max_retries=0` (the cell below does it): what is
#    `broken.value`, and what is in `broken.error`?
# 2. **Fault early.** In the *Break it* cell, move the fault to `at=0.25`.
# 3. **Fault late.** Move it to `at=2.5`.
# 4. **More work.** Run `squares(n=8)` with the fault at `at=1.5`.

# %%
broken = sim.run(lambda: squares(max_retries=0), seed=0, faults=["kill_node node:1 at=1.5"])
print("value:", broken.value, "| error:", type(broken.error).__name__)
print("attempts:", broken.log_text.count("task.start"))
