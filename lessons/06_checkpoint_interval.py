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
# # Lab 6: how often to checkpoint
#
# You will run a 10-hour job on miniray's virtual clock, kill it, and watch what it redoes.
# Then you will find the checkpoint interval that wastes the least time, first by formula and
# then by running the job hundreds of times under random failures.
#
# Run the cells from the top. Each step asks you to predict before you run.

# %%
import time

import ipywidgets  # noqa: F401  (the browser lab loads what a cell imports; the widgets need it)

import miniray as ray
from faultlines.models import checkpoint_interval as model
from faultlines.stories import checkpoint_sim
from faultlines.widgets.checkpoint_interval import CheckpointLab
from miniray import sim
from miniray.liveness import Services

HOUR = 3600.0  # miniray's clock counts seconds; the job thinks in hours


def checkpointed_job(work_h, interval_h, cost_s, store):
    """A task that computes work_h hours in steps of interval_h, saving after each step."""

    @ray.remote(max_retries=-1)  # retry after every worker death, without limit
    def job():
        done_h = store.db.get("checkpoints", "job", 0.0)  # where the last checkpoint left off
        while done_h < work_h - 1e-9:
            step = min(interval_h, work_h - done_h)
            time.sleep(step * HOUR)  # compute
            time.sleep(cost_s)  # write the checkpoint...
            done_h += step
            store.db.upsert("checkpoints", "job", done_h)  # ...saved once this lands
        return done_h

    return job


# %% [markdown]
# ## Step 1: one failure
#
# The job needs 10 hours of work, checkpoints every hour, and each checkpoint takes 30 s. A
# fault kills its worker at 5.99 hours.
#
# **Predict:** when does the job finish? How much work does it do twice?


# %%
def one_run(interval_h=1.0, cost_s=30, kill_at_h=5.99):
    store = Services()
    if kill_at_h is not None:
        sim.kill_worker("node:0", at=kill_at_h * HOUR)  # any busy worker on the one node
    result = ray.get(checkpointed_job(10, interval_h, cost_s, store).remote())
    wall_h = sim.now() / HOUR
    saves = len(store.of(op="upsert"))
    print(f"finished {result:g} h of work at {wall_h:.3f} h on the clock, after {saves} checkpoints")
    print(f"overhead: {wall_h - 10:.3f} h, of which checkpoint I/O {saves * cost_s / HOUR:.3f} h")
    return wall_h


ray.init(num_cpus=1)
one_run()
print(checkpoint_sim.timeline(sim.log_text()))  # the event log, with hours on the clock
ray.shutdown()

# %% [markdown]
# The kill came 57 minutes after the fifth checkpoint. Those 57 minutes were computed twice.
# Ray's retry started the task again a second later (`task.start ... attempt=job#1/2`), and
# the new attempt read the checkpoint and carried on from hour 5.
#
# **Try this.** Move the kill to `kill_at_h=5.05`, just after the checkpoint. Then try
# `interval_h=0.25`. Then `kill_at_h=None`: the overhead is the checkpoint I/O alone.

# %% [markdown]
# ## Step 2: random failures
#
# Real failures do not wait for you. `faultlines.stories.checkpoint_sim.run_job` runs the same
# job with worker kills at the times of a Poisson process, drawn from a seed.
#
# **Predict:** at 0.02 failures per hour, how many of 20 runs of the 10-hour job see a failure?

# %%
COST_H = 30 / HOUR
runs = [checkpoint_sim.run_job(10, 1.0, 0.02, COST_H, seed) for seed in range(20)]
for r in runs:
    print(f"seed {r.seed:2}: {r.failures} failure(s), overhead {r.overhead_h:.3f} h")
print("mean overhead:", round(sum(r.overhead_h for r in runs) / len(runs), 3), "h")

# %% [markdown]
# Expect about 0.2 failures per run, so most runs pay only the 0.083 h of checkpoint I/O, and a
# few pay up to an hour more. The mean of 20 runs is a noisy number: the widget below uses
# hundreds.

# %% [markdown]
# ## Step 3: the formula
#
# The first-order estimate charges C for each of W/τ checkpoints and half an interval per
# failure. The exact expectation also counts failures during a checkpoint and during redone
# work. Young's optimum √(2C/λ) minimises the first; the exact optimum minimises the second.
#
# **Predict:** at 20 failures per 100 hours (0.2/h) instead of 2, does the best interval get
# ten times shorter?

# %%
for rate in (0.02, 0.2):
    young = model.young_interval(rate, COST_H)
    best = model.exact_interval(rate, COST_H)
    daly = model.daly_interval(rate, COST_H)
    print(
        f"λ={rate}/h: Young {60 * young:.1f} min, Daly {60 * daly:.1f} min, exact {60 * best:.1f} min;"
        f" 10 h job at 1 h: first-order {model.first_order(10, 1, rate, COST_H).total_h:.3f} h,"
        f" exact {model.exact(10, 1, rate, COST_H).total_h:.3f} h"
    )

# %% [markdown]
# No: √10 ≈ 3.2 times shorter (55 to 17 minutes). The optimum moves with the square root.

# %% [markdown]
# ## Step 4: the widget
#
# Drag the interval, the failure rate and the checkpoint cost. The curves are the model; the
# numbers under the plot repeat them as text. Press **Run the job in miniray** to put measured
# points on the plot: each averages that many runs at one interval.
#
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Failures ten times as frequent.** Set the failure rate to 0.2, then press the button.
# 2. **Expensive checkpoints.** Set the checkpoint cost to 300 s.
# 3. **Fewer runs.** Press the button with 50 runs per point, then with 500.
# 4. **Kill just after a checkpoint.** In Step 1, set `kill_at_h=5.05`.

# %%
lab = CheckpointLab()
lab.view  # noqa: B018 (the cell shows the widget)
