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
# # Lab 13: told to stop
#
# A long export writes a table one row at a time. Halfway through, its caller changes its mind
# and calls `ray.cancel`. You will see what `ray.get` raises, what the table holds and whether
# Ray runs the export again, for a running task, a forced cancel, a queued task and an actor
# method; then you will make the export all or nothing.
#
# Each step asks you to predict first. Run the cells from the top.

# %%
import time

import ipywidgets  # noqa: F401  (the browser lab loads what a cell imports; the widget needs it)

import miniray as ray
from faultlines.widgets.told_to_stop import cancel_widget
from miniray.liveness import Services

ROW_S = 0.5  # each row takes half a second to read and shape


def export_rows_of(services):
    """The export as a Ray task: ten rows, each written to the database as soon as it is ready."""

    @ray.remote  # max_retries=3 by default
    def export_rows(n):
        for i in range(n):
            time.sleep(ROW_S)
            services.db.upsert("export", f"row-{i}", i)
        return n

    return export_rows


def outcome(ref):
    try:
        return f"returned {ray.get(ref)}"
    except ray.exceptions.RayError as error:
        return type(error).__name__


# %% [markdown]
# ## Step 1: cancel a running task
#
# The driver submits the export, waits 2.2 s and cancels it.
#
# **Predict:** what does `ray.get` raise, how many rows are in the table, and does Ray, with
# `max_retries=3` left, start the export again?

# %%
ray.init(num_cpus=1)
services = Services()
ref = export_rows_of(services).remote(10)
time.sleep(2.2)
ray.cancel(ref)
print("ray.get:", outcome(ref))
time.sleep(3)  # a retry would write rows meanwhile
print("rows:", sorted(services.db.rows("export")))
print(services.text())
ray.shutdown()

# %% [markdown]
# `RayTaskError(TaskCancelledError)`, four rows, and no second attempt: the task stopped where
# it was, its rows stayed, and Ray never retries a cancelled task.
#
# ## Step 2: force it
#
# **Predict:** with `force=True`, what changes: the error, the rows, the worker?

# %%
ray.init(num_cpus=1)
services = Services()
ref = export_rows_of(services).remote(10)
time.sleep(2.2)
ray.cancel(ref, force=True)
print("ray.get:", outcome(ref))
print("rows:", len(services.db.rows("export")))
ray.shutdown()

# %% [markdown]
# A plain `TaskCancelledError` (no remote traceback: the worker was killed, nothing of it
# reported back), the same four rows. A forced cancel runs none of the task's own code after
# the cancel, not even a `finally`.
#
# ## Step 3: cancel a task that has not started
#
# One CPU, and another job holds it. **Predict:** what does the export write?

# %%
ray.init(num_cpus=1)
services = Services()
ahead = export_rows_of(services).remote(2)  # holds the only CPU for a second
ref = export_rows_of(services).remote(10)
ray.cancel(ref)
print("ray.get:", outcome(ref))
print("job ahead:", outcome(ahead), "| rows:", len(services.db.rows("export")))
ray.shutdown()

# %% [markdown]
# The queued export never runs: `TaskCancelledError`, and the two rows are the other job's.
#
# ## Step 4: an actor method
#
# Ray does not interrupt a running actor method. It flags it, and
# `ray.get_runtime_context().is_canceled()` turns true inside it.
#
# **Predict:** the method below never checks the flag. How many rows does it write?
# Then set `CHECKS = True` and run it again.

# %%
CHECKS = False
ray.init(num_cpus=1)
services = Services()


@ray.remote
class Exporter:
    def export(self, n):
        for i in range(n):
            if CHECKS and ray.get_runtime_context().is_canceled():
                return i  # asked to stop: stop between two rows
            time.sleep(ROW_S)
            services.db.upsert("export", f"row-{i}", i)
        return n


exporter = Exporter.remote()
ref = exporter.export.remote(10)
time.sleep(2.2)
ray.cancel(ref)
print("ray.get:", outcome(ref))
print("rows:", len(services.db.rows("export")))
ray.shutdown()

# %% [markdown]
# Without the check the method writes all ten rows, and the caller still gets
# `TaskCancelledError`: told "cancelled" about work that was done. With it, the method stops
# at the next row boundary. Either way `force=True` is refused for an actor call.
#
# ## Step 5: all or nothing
#
# Build every row first, with no effect, and write the table in one call at the end.
# **Predict:** what is in the table after a cancel at 2.2 s? At 5.5 s?

# %%
ray.init(num_cpus=1)
services = Services()


@ray.remote
def export_staged(n):
    table = {}
    for i in range(n):
        time.sleep(ROW_S)
        table[f"row-{i}"] = i
    services.blobs.put("export.json", table)  # the one effect
    return n


ref = export_staged.remote(10)
time.sleep(2.2)
ray.cancel(ref)
print("ray.get:", outcome(ref))
print("table:", services.blobs.files.get("export.json"))
ray.shutdown()

# %% [markdown]
# ## Step 6: told to stop, with notice
#
# A job of 20 one-second steps runs on a node that gets a preemption notice at 6.5 s (a drain,
# deadline 10 s later); at the deadline the cloud takes the node. One job ignores the notice and
# checkpoints every 10 steps; the other reads `get_draining_nodes()` before each step, saves and
# returns when its node is there. The story's code is in `faultlines/stories/drain_notice.py`.
#
# **Predict:** how many steps does each lose, and when does each finish?

# %%
from faultlines.stories.drain_notice import JOBS, preemption

for job in JOBS:
    run = preemption(job)
    print(f"{job}: {run.lost} steps lost, finished at {run.finished_at:g} s")
    print(run.timeline)

# %% [markdown]
# ## Step 7: the widget
#
# Pick how the export is written and when its caller cancels it. Each change runs the story in
# miniray; the chart shows the rows left for every cancel time.
#
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Cancel late.** With `interrupt`, cancel at 5.5 s.
# 2. **Cancel early.** With `actor + is_canceled`, cancel at 0.
# 3. **Cancel the staged export just before its write.** With `staged`, cancel at 4.75 s.

# %%
cancel_widget()
