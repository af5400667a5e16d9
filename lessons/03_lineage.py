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
# # Lab 3: lineage and its cliffs
#
# You will kill a node that holds six objects and see which ones come back. Values of 200 KB
# are above Ray's 100 KiB inline limit: they live in the object store of the node that made
# them, and of every node that read them since. Predict before every run.

# %%
import time

import miniray as ray
from faultlines.timeline import from_trace, render_text
from miniray import sim
from miniray.cluster_utils import Cluster

# %%
# faultlines/stories/lineage.py
BIG = 200_000  # bytes


def small_cluster():
    """Ray's test layout: a head with no CPUs and one worker node with a custom "w" resource."""
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    node = cluster.add_node(num_cpus=2, resources={"w": 1})
    ray.init(address=cluster.address)
    return cluster, node


def node_loss() -> dict[str, str]:
    """A worker node made six objects; the driver read one of them; then the node died.
    The same script, run on a real Ray 2.60 cluster, gave the same answers."""
    cluster, node = small_cluster()

    @ray.remote(resources={"w": 0.1})
    def load():
        time.sleep(1)
        return bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def clean(data):
        time.sleep(1)
        return bytes(len(data))

    @ray.remote(resources={"w": 0.1})
    def count(data):
        return len(data)  # a small result: stored inline, with its owner

    @ray.remote(resources={"w": 0.1}, max_retries=0)
    def snapshot():
        time.sleep(1)
        return bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def summarize():
        return bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def stash():
        return [ray.put(bytes(BIG))]  # owned by this task's worker, on the node that will die

    cleaned = clean.remote(load.remote())
    rows = count.remote(cleaned)
    snap = snapshot.remote()
    report = summarize.remote()
    [stashed] = ray.get(stash.remote())
    table = ray.put(bytes(BIG))  # put by the driver: stored on the driver's node (the head)
    refs = {
        "report": report,
        "cleaned": cleaned,
        "rows": rows,
        "snap": snap,
        "stashed": stashed,
        "table": table,
    }
    # Wait until everything is made, without pulling copies to the driver's node...
    ray.wait(list(refs.values()), num_returns=len(refs), fetch_local=False)
    ray.get([report, rows])  # ...and read only the report (and the small row count)

    cluster.remove_node(node)  # the node dies with its object store
    cluster.add_node(num_cpus=2, resources={"w": 1})  # a replacement joins

    return {name: fate(ref) for name, ref in refs.items()}


def fate(ref) -> str:
    """What `ray.get` says of a ref after the loss: "came back", or the error it raises."""
    try:
        ray.get(ref)
        return "came back"
    except ray.exceptions.RayError as error:
        return type(error).__name__


# %% [markdown]
# **Predict**, for each of `report`, `cleaned`, `rows`, `snap`, `stashed` and `table`: does it
# come back after the node dies, and if not, which exception does `ray.get` raise? Only
# `report` (and the small `rows`) was read by the driver before the node died.

# %%
loss = sim.run(node_loss, seed=0)
for name, outcome in loss.value.items():
    print(f"{name:8} {outcome}")
print(render_text(from_trace(ray.timeline()), per_second=10))

# %% [markdown]
# The reconstruction, line by line: the owner (the driver) notices the lost objects and
# resubmits the tasks that made them, inputs first.

# %%
print("\n".join(line for line in loss.log_text.splitlines() if "reconstruct" in line or "#1/2" in line))

# %% [markdown]
# ## Cliff 1: actor state
#
# An actor counts to 3, then reports its count inside a big payload. The node dies.
# **Predict** the count in the rebuilt report, with `max_restarts=1, max_task_retries=1`.


# %%
# faultlines/stories/lineage.py
def actor_state(max_restarts: int = 1, max_task_retries: int = 1) -> tuple[int, int | str]:
    """An actor's output is rebuilt by calling the method again, on a restarted actor."""
    cluster, node = small_cluster()

    @ray.remote(resources={"w": 0.1}, max_restarts=max_restarts, max_task_retries=max_task_retries)
    class Counter:
        def __init__(self):
            self.n = 0

        def incr(self):
            self.n += 1
            return self.n

        def report(self):
            return self.n.to_bytes(4, "big") + bytes(BIG)  # the count, in a big payload

    @ray.remote(resources={"w": 0.1})
    def peek(data):  # reads the report on the worker node: no copy reaches the driver's node
        return int.from_bytes(data[:4], "big")

    counter = Counter.remote()  # type: ignore[attr-defined]  # @ray.remote made it an actor class
    ray.get([counter.incr.remote() for _ in range(3)])
    report = counter.report.remote()
    before = ray.get(peek.remote(report))

    cluster.remove_node(node)
    cluster.add_node(num_cpus=2, resources={"w": 1})
    try:
        after: int | str = int.from_bytes(ray.get(report)[:4], "big")
    except ray.exceptions.RayError as error:
        after = type(error).__name__
    return before, after


print("restarts and retries:", sim.run(actor_state, seed=0).value)
print("Ray's defaults (0, 0):", sim.run(lambda: actor_state(0, 0), seed=0).value)

# %% [markdown]
# ## Cliff 2: side effects
#
# `settle` writes a payment row, then returns a big receipt. The receipt is lost and rebuilt.
# **Predict** how many rows the table holds. Then set `idempotent=True`.

# %%
# faultlines/stories/lineage.py
from miniray.liveness import Services


def side_effect(idempotent: bool = False) -> dict[str, int]:
    """A task records a payment, then its output is lost: reconstruction runs the body again."""
    cluster, node = small_cluster()
    services = Services()  # a simulated database outside the cluster

    @ray.remote(resources={"w": 0.1})
    def settle(order):
        time.sleep(1)  # talks to the payment provider
        if idempotent:
            services.db.upsert("payments", order, 100)  # keyed by the order: a rerun overwrites
        else:
            services.db.insert("payments", f"{order} at t={sim.now():g}", 100)  # a new row per run
        return bytes(BIG)  # the receipt, big enough to live in the node's store

    receipt = settle.remote("order-17")
    ray.wait([receipt], fetch_local=False)  # done, and not read: its only copy is on the node
    cluster.remove_node(node)
    cluster.add_node(num_cpus=2, resources={"w": 1})
    ray.get(receipt)  # rebuilt from lineage: settle runs again
    return services.db.rows("payments")


print(sim.run(side_effect, seed=0).value)

# %% [markdown]
# ## Cliff 3: a dead owner
#
# `stashed` above was created by `ray.put` *inside a task*: its owner was that task's worker,
# on the node that died. The owner kept the lineage, so the lineage died too:
# `OwnerDiedError`. `table`, put by the driver, is owned by the driver and lives on the head.
#
# The fourth cliff, a task that does not return the same value when it runs again, is on the
# lesson page: Ray checks it only for a streaming generator's replay, and only by its count.
#
# ## Rebuild or materialize?
#
# A 12-stage pipeline loses the node that holds its intermediates after stage 7. Rebuilding
# re-runs stages 1 to 7; materializing stage 7 costs a write on every run and a read after a
# loss. Drag the sliders; tick *measure in miniray* to run the pipeline both ways.

# %%
import ipywidgets  # noqa: F401  (the lab installs a package when a cell imports it)

from faultlines.widgets.lineage_calculator import lineage_calculator

lineage_calculator()

# %% [markdown]
# The pipeline itself (course code in `faultlines.stories.lineage`): run it with and without
# materialization and compare against a clean run of 12 × 40 s.

# %%
import functools

from faultlines.stories.lineage import pipeline

for materialize in (False, True):
    run = sim.run(functools.partial(pipeline, materialize=materialize), seed=0)
    print(
        f"materialize={materialize}: done at t = {run.value:g} s, {run.value - 12 * 40:g} s more than a clean run"
    )

# %% [markdown]
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Read it first.** Add `cleaned` to the driver's `ray.get([report, rows])` in `node_loss`.
# 2. **Allow retries.** Give `snapshot` `max_retries=1` in `node_loss`.
# 3. **Move the owner.** Replace `stash` with a driver-side `ray.put`.
# 4. **Take away the retry.** Run `actor_state(1, 0)` (the cell below does it).
# 5. **Make it idempotent.** Run `side_effect(idempotent=True)`.
# 6. **Lose an early stage.** In the calculator, set the lost stage to 2.

# %%
print("restart without a method retry:", sim.run(lambda: actor_state(1, 0), seed=0).value)
