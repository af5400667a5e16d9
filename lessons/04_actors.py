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
# # Lab 4: actors that die, restart and remember
#
# An actor's state lives in one process. Here you will kill that process and see what the
# caller gets back under each combination of `max_restarts` and `max_task_retries`, then give
# the actor a checkpoint so a restart does not start from zero.
#
# Each step asks you to predict first. Run the cells from the top.

# %%
import os

import ipywidgets  # noqa: F401  (the browser lab loads what a cell imports; the widgets need it)

import miniray as ray
from faultlines.stories.actor_lives import run_counter
from faultlines.widgets.actor_lives import ActorLivesLab
from miniray import sim
from miniray.liveness import Services


def outcome(ref):
    """What ray.get gives for a call: its value, or the name of the error it raised."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayActorError as error:
        return type(error).__name__


def make_counter(store=None, checkpoint_every=0):
    """A counter actor class; with a store, it saves its count and reloads it on (re)start."""

    class Counter:
        def __init__(self):
            self.n = store.db.get("ckpt", "counter", 0) if store else 0

        def incr(self):
            self.n += 1
            if store and checkpoint_every and self.n % checkpoint_every == 0:
                store.db.upsert("ckpt", "counter", self.n)
            return self.n

        def die(self):
            os._exit(1)  # the actor's process exits, as a crash or an OOM kill would

    return Counter


# %% [markdown]
# ## Step 1: the defaults
#
# `@ray.remote` on a class gives `max_restarts=0`. The actor counts to 3, then its process
# dies while a call is running, with one more call queued behind it.
#
# **Predict:** what do the dying call, the queued call and a later call each get?

# %%
ray.init(num_cpus=1)
Counter = ray.remote(make_counter())
c = Counter.remote()
print([outcome(c.incr.remote()) for _ in range(3)])
dying, queued = c.die.remote(), c.incr.remote()
print("dying:", outcome(dying), "| queued:", outcome(queued), "| later:", outcome(c.incr.remote()))
ray.shutdown()

# %% [markdown]
# All three get `ActorDiedError`: with no restarts left, the actor is gone for good.

# %% [markdown]
# ## Step 2: one restart, no task retries
#
# Same actor with `max_restarts=1` (and `max_task_retries=0`, the default).
#
# **Predict:** the dying and queued calls' errors; the value of the next `incr` after the
# restart; and what a second death gives.

# %%
ray.init(num_cpus=1)
c = Counter.options(max_restarts=1).remote()
print([outcome(c.incr.remote()) for _ in range(3)])
dying, queued = c.die.remote(), c.incr.remote()
print("dying:", outcome(dying), "| queued:", outcome(queued))
print("after the restart:", outcome(c.incr.remote()))
print("second death:", outcome(c.die.remote()), "| then:", outcome(c.incr.remote()))
for record in sim.event_log():
    if record.kind == sim.Kind.ACTOR_STATE:
        print(f"{record.time:4.1f} s  {record['state']}")
ray.shutdown()

# %% [markdown]
# `ActorUnavailableError` means "the actor may come back; this call did not get an answer".
# The restart re-ran `__init__`, so the count started again at 1. The second death used up
# the restart budget: `ActorDiedError`.

# %% [markdown]
# ## Step 3: task retries
#
# Now `max_task_retries=-1`: Ray resends calls that failed because the actor died.
#
# **Predict:** what does the queued call return now?

# %%
ray.init(num_cpus=1)
c = Counter.options(max_restarts=1, max_task_retries=-1).remote()
print([outcome(c.incr.remote()) for _ in range(3)])
queued = [c.incr.remote() for _ in range(2)]
sim.kill_actor(c)  # a fault: the process dies between calls
print("queued calls:", [outcome(r) for r in queued])
ray.shutdown()

# %% [markdown]
# No error reached the caller, and the answers are 1 and 2, not 4 and 5. Retries hide the
# crash; they do not bring the state back.

# %% [markdown]
# ## Step 3b: a worker's memory is its own
#
# Each worker is its own process, with its own copy of the variables its code uses outside the
# actor. **Predict:** four tasks append to a module-level list, then an actor counts in a
# closure variable and is restarted once. What does each see, and what does the driver see?

# %%
from faultlines.stories import worker_memory

print(sim.run(worker_memory.global_list).value)
print(sim.run(worker_memory.closure_counter).value)
print(sim.run(lambda: worker_memory.closure_counter(keep_in_instance=True)).value)

# %% [markdown]
# The driver's list stays empty and its closure variable stays 0: the writes happened in the
# workers' own copies. The restarted actor answered 1: a new process starts from the code as it
# was submitted, wherever the count was kept.

# %% [markdown]
# ## Step 4: Ray's documentation example, counted
#
# Ray's fault-tolerance page has an actor with `max_restarts=4, max_task_retries=-1` whose
# process exits on the call after its tenth. `run_counter()` runs that setup on miniray and
# makes 60 calls.
#
# **Predict:** how many calls return a number before the errors start? (Four restarts of ten
# calls each is the tempting answer.)

# %%
doc = run_counter()  # max_restarts=4, max_task_retries=-1, exit after 10 answered calls
print(doc.lines())
print(len(doc.values), "answers in", doc.lives, "lives;", doc.executions, "method executions")

# %% [markdown]
# Fifty: one original life and four restarts are five lives of ten calls. The call that
# crashes each life is retried on the next one, so it counts too. Try `max_task_retries=0`:
# still fifty numbers, but now four calls raise `ActorUnavailableError` in between.

# %%
print(run_counter(max_task_retries=0).lines())

# %% [markdown]
# ## Step 5: a checkpoint
#
# Give the counter a store: it saves every 5 increments and reads the count back in
# `__init__`. Count to 7, then crash it.
#
# **Predict:** what does the first call after the restart return?

# %%
ray.init(num_cpus=1)
store = Services()
Saved = ray.remote(make_counter(store, checkpoint_every=5))
c = Saved.options(max_restarts=1, max_task_retries=-1).remote()
print([outcome(c.incr.remote()) for _ in range(7)])
sim.kill_actor(c)
print("after the restart:", outcome(c.incr.remote()))
print(store.text())
ray.shutdown()

# %% [markdown]
# 6: the checkpoint held 5, so the restart recovered to the last checkpoint, not to the last
# call. Increments 6 and 7 were answered, then forgotten.
#
# **Try this.** Set `checkpoint_every=1`: nothing is forgotten, and every call writes to the
# store. Set it to 10: the restart goes back to 0.

# %% [markdown]
# ## Step 6: the widget
#
# Every change reruns 60 calls in miniray. The line is how many calls were answered; the dots
# are the counts returned; dots at 0 are calls that raised. The gap between line and dots is
# what the actor forgot.
#
# ## Try this
#
# The lesson page says what to expect from each. Start from the widget's defaults (Ray's
# example) each time.
#
# 1. **No retries.** Set `max_task_retries` to 0.
# 2. **Checkpoint every five.** Set "checkpoint every" to 5; then "exit after calls" to 7.
# 3. **A checkpoint too far apart.** Set "checkpoint every" to 10 and "exit after calls" to 9.
# 4. **No budget.** Set `max_restarts` to 0.

# %%
lab = ActorLivesLab()
lab.view  # noqa: B018 (the cell shows the widget)
