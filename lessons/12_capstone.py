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
# # Lab 12: capstone, the failure table
#
# One workload, seven boundaries, each broken on purpose. The workload: a three-stage feature
# pipeline (load 20 s, clean 40 s, featurize 60 s, each leaving a 1 GB block in the object
# store) feeding a trainer actor that trains 20 steps of 10 s and checkpoints every 5 steps.
# The runs live in `faultlines.stories.capstone_runs`: read them, change them, rerun them.
#
# Two rows use course models, because miniray has neither: a checkpoint that reads back
# corrupt, and a replacement node that joins after an autoscaler's delay.

# %%
from dataclasses import replace

import ipywidgets  # noqa: F401  (the lab loads a package only once a cell imports it by name)
from IPython.display import HTML, display

from faultlines.models import failure_table as ft
from faultlines.stories import capstone_runs as runs
from faultlines.widgets.failure_table import FailureTableWidget, table_html


def show(row):
    print(f"{row.row}: {row.fault}")
    print(f"  Ray does: {row.ray_does}")
    cost = "the job" if row.lost_s == float("inf") else f"{row.lost_s:g} s"
    print(f"  driver sees: {row.outcome}; cost {cost}; correct answer: {row.correct}")
    print(f"  {row.detail}")
    print("\n".join("    " + line for line in row.log))


# %% [markdown]
# ## 1. Task failure
#
# The worker running `featurize` (60 s) dies 25 s in. **Predict**: which exception reaches the
# driver, and when does the result arrive?

# %%
show(runs.row_task_failure())

# %% [markdown]
# ## 2. Actor death
#
# The trainer's process dies at 125 s, in step 13; the last checkpoint is step 10. First with
# Ray's default `max_restarts=0`, then with 2. **Predict** both outcomes.

# %%
show(runs.row_actor_death(max_restarts=0))
print()
show(runs.row_actor_death(max_restarts=2))

# %% [markdown]
# ## 3. Node loss
#
# The node holding all three stages' blocks dies just as `featurize` finishes. A consumer
# then asks for the featurized block. **Predict**: error, or result? How much is redone?

# %%
show(runs.row_node_loss())

# %% [markdown]
# ## 4. Object spill and 5. dead owner
#
# The spill row is lesson 11's story. The dead-owner row: a task `ray.put` a block and
# returned the ref; then the task's node dies. **Predict** what `ray.get` on that ref does.

# %%
show(runs.row_spill())
print()
show(runs.row_dead_owner())

# %% [markdown]
# ## 6. Corrupt checkpoint
#
# Step 10's checkpoint reads back damaged, then the trainer dies in step 13. **Predict**: with
# a checksum check, which step does it restore? Without one?

# %%
show(runs.row_corrupt_checkpoint(verify=True))
print()
show(runs.row_corrupt_checkpoint(verify=False))

# %% [markdown]
# ## 7. Autoscaler delay
#
# The only GPU node dies 30 s into a 60 s task; a replacement boots in 300 s. **Predict** the
# finish time.

# %%
show(runs.row_autoscaler_delay(300))

# %% [markdown]
# ## 8. The table, and one flipped assumption
#
# Each row with the decision it leads to at 2 % node failures per hour, then at 20 %.
# **Predict** before you run: which decisions change?

# %%
rows = runs.all_rows()
base = ft.Assumptions(failure_rate_per_h=0.02)
flipped = ft.flip(base, failure_rate_per_h=0.20)
for before, after, changed in flipped:
    print(f"{'CHANGED' if changed else '       '}  {before.row:<20} {before.choice}")
    if changed:
        print(f"{'':9}  {'':<20} -> {after.choice}  ({after.because})")
display(HTML(table_html(rows, flipped)))

# %% [markdown]
# ## 9. The widget
#
# Drag the failure rate, the replacement's boot time, the number of nodes and the checkpoint
# I/O. The line above the chart counts the decisions that moved. Things to try:
#
# * failure rate to 0.2: three decisions move (restarts, interval, materialization);
# * back to 0.02, then 256 nodes and a 3600 s boot: the warm spare starts to pay;
# * checkpoint I/O to 300 s at 0.02: the interval stretches to almost 3 hours.

# %%
widget = FailureTableWidget(rows, base)
display(widget.box)

# %% [markdown]
# ## 10. Try this
#
# The lesson page says what to expect from each.
#
# 1. **A different assumption.** In section 8, flip `checkpoint_s=300` instead of the failure
#    rate (the cell below does it).
# 2. **A longer chain.** Decide with `replace(base, recompute_s=280)` (the cell below).
# 3. **A huge cluster.** In the widget, keep 2 %/h, set 256 nodes and a 3600 s boot.
# 4. **No checksum.** In section 6, run `verify=False` and compare the weights.
# 5. **Instant replacement.** In section 7, use `runs.row_autoscaler_delay(0)`.

# %%
print([b.row for b, _, changed in ft.flip(base, checkpoint_s=300) if changed])
print(ft.decide(replace(base, recompute_s=280))[3])
