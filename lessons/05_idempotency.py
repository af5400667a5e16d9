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
# # Lab 5: at-least-once, and the double charge
#
# A task charges a card and returns. Its worker dies after the charge and before the return.
# Ray retries the task, as it should. You will count the charges, then make the task safe to
# run twice in three different ways.
#
# Each step asks you to predict first. Run the cells from the top.

# %%
import ipywidgets  # noqa: F401  (the browser lab loads what a cell imports; the widgets need it)

import miniray as ray
from faultlines.stories.payments import CardProcessor, mktemp
from faultlines.widgets.idempotency import IdempotencyLab
from miniray import sim
from miniray.liveness import Services


def fresh_world():
    """A new set of external services: a card processor, a database and a blob store."""
    services = Services()
    return services, CardProcessor(services)


# %% [markdown]
# ## Step 1: a crash after the effect
#
# `settle_order` charges the card through the processor's API and returns the charge id.
# `sim.crash("settle_order#1/1", step=1)` kills the first attempt's worker just before its
# interaction number 1 with the outside world. The charge is interaction 0, so the worker
# dies after the charge and before the return.
#
# **Predict:** what does `ray.get` return, and how many charges does the processor hold?

# %%
ray.init(num_cpus=1)
services, processor = fresh_world()


@ray.remote  # max_retries defaults to 3: a dead worker means "run it again"
def settle_order(order, card, amount):
    return processor.charge(order, card, amount)


sim.crash("settle_order#1/1", step=1)
print("ray.get:", ray.get(settle_order.remote("order-7", "card-4242", 30)))
print("charges for order-7:", processor.charged("order-7"))
print(services.text())
ray.shutdown()

# %% [markdown]
# Two charges, one per attempt, and a successful `ray.get`. The driver never saw a failure.
# Ray did its job: the worker died, so the task ran again. The task was not safe to run
# again.
#
# **Try this.** Change `step=1` to `step=0`: the worker dies before charging, and the
# customer pays once.

# %% [markdown]
# ## Step 2: every place a crash can land
#
# `sim.run` runs a scenario on a fresh cluster and reports its choice points: for each
# attempt, how many interactions it made. Each gap between interactions is a place a crash
# could land. Here we try them all.
#
# **Predict:** of the crash points of the first attempt, how many lead to a double charge?


# %%
def scenario():
    ray.init(num_cpus=1)
    return ray.get(settle_order.remote("order-7", "card-4242", 30))


services, processor = fresh_world()
clean = sim.run(scenario)
print("choice points:", clean.points.attempts)
for fault in clean.points.crashes():
    services, processor = fresh_world()
    run = sim.run(scenario, faults=[fault])
    print(f"{fault.token():32} -> {run.value}, charges: {processor.charged('order-7')}")

# %% [markdown]
# One of the two: the crash after the charge. Two points is a small state space; a task with
# ten effects has eleven, and a retry can crash too. This is how the course's grader checks
# your fixes: it runs them under every crash point.

# %% [markdown]
# ## Step 3: fix 1, an idempotency key
#
# Payment APIs accept an idempotency key: a repeated request with the same key gets the first
# answer back instead of a second charge. The key must be the same on every attempt, so it
# comes from the order, not from the attempt.
#
# **Predict:** charges, and the charge id `ray.get` returns.

# %%
ray.init(num_cpus=1)
services, processor = fresh_world()


@ray.remote
def settle_with_key(order, card, amount):
    return processor.charge(order, card, amount, idempotency_key=order)


sim.crash("settle_with_key#1/1", step=1)
print("ray.get:", ray.get(settle_with_key.remote("order-7", "card-4242", 30)))
print("charges for order-7:", processor.charged("order-7"))
print(services.text())
ray.shutdown()

# %% [markdown]
# One charge, `ch_1`. The second attempt still called the API: the effect log shows two
# calls. The processor turned the second into a no-op.

# %% [markdown]
# ## Step 4: fix 2, an upsert
#
# If you own the store, write the payment as a row keyed by the order. `db.upsert` replaces
# the row if it exists; a second write changes nothing.
#
# **Predict:** how many rows does the payments table hold?

# %%
ray.init(num_cpus=1)
services, processor = fresh_world()


@ray.remote
def record_payment(order, card, amount):
    services.db.upsert("payments", order, {"card": card, "amount": amount})
    return order


sim.crash("record_payment#1/1", step=1)
print("ray.get:", ray.get(record_payment.remote("order-7", "card-4242", 30)))
print("rows:", services.db.rows("payments"))
print(services.text())
ray.shutdown()

# %% [markdown]
# One row, written twice. **Try this.** Replace `upsert` with `insert` (it refuses a key that
# exists): the retry raises `DuplicateKeyError`, and the caller sees an error for a payment
# that was recorded. A unique key stops the duplicate; the task still has to treat
# "already there" as success.

# %% [markdown]
# ## Step 5: fix 3, a temp write and an atomic commit
#
# For a file, write it under a private temp name, then rename it to its final path in one
# step. `blobs.commit` renames only if the final path does not exist yet. Look for a committed
# file first, so a retry after the commit returns at once.
#
# The body talks to the outside world four times: look (0), pick a temp name (1), write (2),
# rename (3). Step 4 is after all of them.
#
# **Predict:** the first attempt dies after the rename (step 4). What does the second attempt
# do?

# %%
ray.init(num_cpus=1)
services, processor = fresh_world()


@ray.remote
def write_receipt(order, amount):
    final = f"receipts/{order}.json"
    if services.blobs.read(final) is not None:
        return final  # an earlier attempt committed: that is success
    temp = mktemp(services, f"tmp/{order}")  # a fresh name: private to this attempt
    services.blobs.put(temp, {"amount": amount})
    services.blobs.commit(temp, final)
    return final


sim.crash("write_receipt#1/1", step=4)
print("ray.get:", ray.get(write_receipt.remote("order-7", 30)))
print("files:", sorted(services.blobs.files))
print(services.text())
ray.shutdown()

# %% [markdown]
# The second attempt found the receipt and returned. **Try this.** Move the crash to
# `step=3` (after the temp write, before the rename): one receipt again, plus a temp file
# nobody cleans up. Real systems sweep old temp files.

# %% [markdown]
# ## Step 6: the widget
#
# Pick how the task writes the payment, where its dying attempts stop and how many attempts
# die. Each change reruns the task in miniray. The table counts the payments for every task
# at every crash point.
#
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Run out of retries.** With `append`, set "attempts that die" to 4.
# 2. **The same with a key.** Switch to `idempotency key`.
# 3. **Die between write and rename.** With `temp + commit`, set the crash point to 3.
# 4. **No retries at all.** In Step 1, decorate the task with `@ray.remote(max_retries=0)`.

# %%
lab = IdempotencyLab()
lab.view  # noqa: B018 (the cell shows the widget)
