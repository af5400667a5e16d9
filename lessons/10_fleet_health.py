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
# # Lab 10: fleet health
#
# A generation fleet of 4 shards serves rollouts while a trainer trains and, after each step,
# sends every shard the new weights (a *refit*). A controller probes the shards every
# `probe_interval_s` and keeps a ledger: HEALTHY, SUSPECT, DEAD, RESTARTING, STALE.
# Every run below is on a virtual clock, so it takes milliseconds and gives the same answer
# every time. Run this first cell, then work down.

# %%
import ipywidgets  # noqa: F401  (the lab loads a package only once a cell imports it by name)
from IPython.display import display

# The fleet controller model (from the NeMo-RL restart notes). The lab's one import of it: its home may move.
from faultlines.fleet import Fleet
from faultlines.models import fleet_health as fh
from faultlines.widgets.fleet_health import FleetHealthWidget


def show(run):
    print("\n".join(run.events))
    print()
    print(fh.summary_text(run))


# %% [markdown]
# ## 1. A crash between refits
#
# Shard 2's process dies at 12 s. Probes run at 5, 10, 15, ... s.
#
# **Predict** before you run: at what time does the ledger mark shard 2 DEAD? When does it serve
# rollouts again: right after its restart, or later?

# %%
crash = fh.observe(Fleet, fault="crash", fault_at=12)
show(crash)

# %% [markdown]
# The probe at 15 s got `RayActorError`: the process is gone, so one probe is enough. The
# restart starts on the same tick and reloads the model for 360 s while two refits go ahead
# without shard 2. Reloaded at 375 s, it is STALE: in the refit group, out of the serving set,
# because it holds weights from disk. The refit that ends at 399 s gives it current weights
# and promotes it.

# %% [markdown]
# ## 2. A hang between refits
#
# Now shard 2 stops answering at 12 s but its process stays up.
#
# **Predict**: how many probes does it take to mark it DEAD, and at what time?

# %%
hang = fh.observe(Fleet, fault="hang", fault_at=12)
show(hang)

# %% [markdown]
# A timeout could be a blip, so each one only counts. Three in a row (`unhealthy_threshold=3`)
# make it DEAD. Meanwhile it is SUSPECT and *still serving*: the rollouts routed to it time out.
#
# The time to notice depends on where the fault lands between probes. Run the sweep:

# %%
print("fault at   crash noticed after   hang noticed after")
for tenth in range(100, 150, 5):
    t = tenth / 10
    c = fh.observe(Fleet, fault="crash", fault_at=t).notice_s
    h = fh.observe(Fleet, fault="hang", fault_at=t).notice_s
    print(f"{t:6.1f} s   {c:8.1f} s            {h:8.1f} s")

# %% [markdown]
# ## 3. A fault during a refit
#
# The refit of step 1 runs from 121 s to 133 s. Shard 2 fails at 124 s, in the middle of it.
#
# **Predict**: how long does the trainer wait on that refit when shard 2 *hangs*? When it
# *crashes*? (`refit_timeout_s` is 300 s.)

# %%
for fault in ("hang", "crash"):
    run = fh.observe(Fleet, fault=fault, fault_at=124)
    print(f"{fault}: DEAD at {run.dead_at:g} s, longest wait on a weight transfer {run.longest_refit_s:g} s")
print()
show(fh.observe(Fleet, fault="hang", fault_at=124))

# %% [markdown]
# The ledger knows shard 2 is DEAD at 135 s, but nothing connects the ledger to the collective:
# the trainers stay blocked until the 300 s deadline aborts the transfer. A crash closes the
# dead peer's sockets, the collective fails within seconds, and the controller retries the
# transfer without shard 2. The abort also leaves the survivors with a mix of weights, so they
# go STALE until the retry completes.

# %% [markdown]
# ## 4. The promotion bug
#
# Shard 2 crashes at 28 s. Its restart takes 360 s, so it finishes at 390 s: *inside* the
# refit that runs 387-399 s, whose group was settled at 387 s without shard 2.
#
# **Predict**: when that refit ends, shard 2 is STALE and got no weights. Does the shipped
# controller promote it? Which weights does it serve for the next step?

# %%
bug = fh.observe(Fleet, fault="crash", fault_at=28, promote="all_stale")
show(bug)

# %% [markdown]
# The shipped rule promotes *every* STALE shard when a refit ends. Shard 2 serves rollouts from
# the checkpoint it loaded off disk until the next refit, and the weight-version metric, written
# by the same call, says it holds the refit's version. Now the fix: promote only the shards this
# refit wrote to.

# %%
fix = fh.observe(Fleet, fault="crash", fault_at=28, promote="refitted")
show(fix)

# %% [markdown]
# ## 5. The threshold's other side
#
# A low `unhealthy_threshold` notices a hang sooner. Here shard 2 stops answering for 8 s and
# then answers again (a long GC pause).
#
# **Predict**: with threshold 3, how long is it out of service? With threshold 1?

# %%
for threshold in (3, 1):
    run = fh.observe(Fleet, fault="blip", fault_at=12, unhealthy_threshold=threshold)
    print(f"threshold {threshold}: out of service for {run.out_of_service_s:g} s, DEAD at {run.dead_at}")

# %% [markdown]
# ## 6. The widget
#
# Every shard's ledger state over time, with the faulty shard's weights and the refits below.
# Drag the knobs; the table under the chart gives the same facts as text. Things to try:
#
# * **probe 1 s, hang**: the verdict comes in 2-3 s instead of 10-15 s. What did it cost? (Five
#   times the probes; with a blip, a shorter pause is enough to kill a shard.)
# * **crash at 28 s** (where it starts), then switch *promote*: watch the weights row under HEALTHY.
# * **fault at 124 s**, hang against crash: the length of the grey/red refit bar.
# * **blip, threshold 1 then 3**: the same 8 s pause, a 6-minute outage or none.

# %%
widget = FleetHealthWidget(Fleet)
display(widget.box)

# %% [markdown]
# ## 7. Try this
#
# The lesson page says what to expect from each; all four are in the widget above.
#
# 1. **Probe every second.** Choose *hang* and set *probe* to 1.
# 2. **Threshold one.** Choose *blip* and set the threshold to 1.
# 3. **Flip the promotion rule.** Set *fault at* to 28, *fault* to crash, then switch *promote*.
# 4. **Move the fault into a refit.** Set *fault at* to 124 and switch between hang and crash.
#
# And in the cells above: in section 3, pass `refit_timeout_s=60` to the hang run (the wait
# drops to about 72 s); in section 4, pass `reload_s=300` to both runs (the restart ends before
# the refit: no bug).
