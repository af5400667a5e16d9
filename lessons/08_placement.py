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
# # Lab 8: placement and retry policy
#
# A scheduler places work, admits it, tracks who is alive and re-runs what failed. This lab
# starts with a bad machine that swallows a job and a bad row that gets a good machine blamed,
# then a cluster that is 70 % used and still cannot start a task, and a driver that floods the
# cluster with work. Predict before each run.

# %%
import time

import ipywidgets  # noqa: F401  (named in a cell so the browser's kernel loads it for the widget)

import miniray as ray
from faultlines.stories.attribution import BAD_INPUT_ROWS, GOOD_ROWS, run_batch
from faultlines.widgets.packing_curve import packing_widget
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.liveness import RETRYABLE, TransientError
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy


def fresh_cluster(nodes=5, cpus=4):
    """A head with no CPUs and `nodes` workers of `cpus` CPUs each."""
    ray.shutdown()
    sim.set_seed(0)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    ray.init(address=cluster.address)
    return cluster, [cluster.add_node(num_cpus=cpus) for _ in range(nodes)]


def cpus_in_use(workers):
    return [n.total["CPU"] - n.available["CPU"] for n in workers]


@ray.remote(num_cpus=1)
def small():
    time.sleep(1000)


@ray.remote(num_cpus=3)
def big():
    return "big task started"


@ray.remote(num_cpus=1)
def quick():
    return "started"


# %% [markdown]
# ## Step 1: a bad machine
#
# N1 has a corrupt local cache: every task it runs raises `TransientError`, which is in
# `RETRYABLE`, so the task is retried (up to `max_retries=3`). Twelve rows, three 1-CPU
# nodes, 5 s a row.
#
# **Predict:** with no failure attribution, how many of the twelve rows succeed?

# %%
cluster, workers = fresh_cluster(nodes=3, cpus=1)
N1 = workers[0]


@ray.remote(max_retries=3, retry_exceptions=list(RETRYABLE))
def parse(row):
    if ray.get_runtime_context().get_node_id() == N1.node_id:  # which node runs this attempt
        raise TransientError("corrupt local cache on N1")
    time.sleep(5)
    return row


results = []
for ref in [parse.remote(r) for r in GOOD_ROWS]:
    try:
        results.append(ray.get(ref))
    except TransientError:  # ray.get raises the task's error (wrapped in a RayTaskError)
        results.append("failed")
print(results)
print("finished at t =", sim.now(), " attempts:", sum(r.kind == sim.Kind.TASK_START for r in sim.event_log()))

# %% [markdown]
# Most rows fail. N1 fails in microseconds, so it is the first node free, so it gets the next
# row, and the retry of the row it just failed. A fast-failing machine attracts work. Now
# count failures per node and stop sending work to one that stands out:
# `miniray.liveness.attribution.Attribution(min_failures=3, ratio=3.0)`.
#
# **Predict:** with attribution on, how many rows succeed, and what does it cost?

# %%
for counter in ("none", "all failures"):
    run = run_batch(GOOD_ROWS, counter, bad_node=1)
    ok = sum(r.startswith("ok") for r in run.results)
    print(
        f"{counter:>14}: {ok}/12 rows ok, {run.attempts} attempts, done at t={run.finished_at:g}, blacklisted {run.blacklisted}"
    )

# %% [markdown]
# Attribution blacklists N1 after three failures; every row succeeds on N2 and N3, at the cost
# of running on two nodes instead of three. Without it the scheduler's helpfulness is what
# hides the fault: each failure is retried, nothing looks broken, and one machine eats the job.
#
# ## Step 2: a bad row is not a bad machine
#
# Now all nodes are healthy, but four of ten rows are malformed and raise `ValueError`. That
# is a terminal error: not in `RETRYABLE`, so it is not retried (retrying it would fail the
# same way on every node).
#
# **Predict:** with a counter that counts every failed attempt ("all failures"), is any node
# blacklisted? And with miniray's own `Attribution` ("retryable only")?

# %%
for counter in ("none", "all failures", "retryable only"):
    run = run_batch(BAD_INPUT_ROWS, counter)
    blamed = {row["node"]: row["failures"] for row in run.report}
    print(
        f"{counter:>14}: failures per node {blamed}, blacklisted {run.blacklisted}, done at t={run.finished_at:g}"
    )

# %% [markdown]
# The malformed rows failed at once, so the node that ran the first one was free again first
# and got the next bad row too. The naive counter (`CountEveryFailure`, in
# `faultlines.stories.attribution`) counted those `ValueError`s against that node and
# blacklisted a healthy machine: the batch took longer on two nodes. miniray's `Attribution`
# counts only failures whose class is retryable, plus workers and nodes dying. An error caused
# by the input says nothing about the node.

# %% [markdown]
# ## Step 3: 70 % used, and a task waits
#
# Five nodes of 4 CPUs: 20 CPUs. Fourteen 1-CPU tasks start, placed by the default policy.
# Then a task asks for 3 CPUs.
#
# **Predict:** 6 CPUs are free. Does the 3-CPU task start?

# %%
cluster, workers = fresh_cluster()
for _ in range(14):
    small.remote()
sim.sleep(0.5)
print("CPUs free in the cluster:", ray.available_resources().get("CPU"))
print("CPUs in use per node:", cpus_in_use(workers))
ready, _ = ray.wait([big.remote()], timeout=10)
print("3-CPU task started within 10 s:", bool(ready))

# %% [markdown]
# No. The default policy put each task on the least-utilised node, so the free CPUs are
# spread as 1, 1, 1, 1, 2. Six are free in total; no node has three. The cluster is not full,
# it is **fragmented**. An operator sees "70 % used, tasks queued" and suspects a scheduler
# bug; it is a packing consequence.
#
# ## Step 4: the same load, packed
#
# **Predict:** pin the same fourteen tasks to fill N1, N2 and N3 and half of N4. Does the
# 3-CPU task start now?

# %%
cluster, workers = fresh_cluster()
for i in range(14):
    node = workers[i // 4]
    small.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False)).remote()
sim.sleep(0.5)
print("CPUs in use per node:", cpus_in_use(workers))
print(ray.get(big.remote()))

# %% [markdown]
# Yes: N5 is empty. Same utilisation, different layout. Packing leaves room for big tasks;
# spreading balances load and survives a node loss better. Neither is right for every job.
#
# ## Step 5: over-requesting
#
# Each of these tasks declares `num_cpus=4` and then waits on I/O: it uses almost no CPU.
#
# **Predict:** five of them run on the five nodes. What does `ray.available_resources()` say,
# and can a sixth task with `num_cpus=1` start?

# %%
cluster, workers = fresh_cluster()


@ray.remote(num_cpus=4)
def mostly_waiting():
    time.sleep(1000)  # waiting on a network call: the CPUs it reserved sit idle


for _ in range(5):
    mostly_waiting.remote()
sim.sleep(0.5)
print("CPUs free:", ray.available_resources().get("CPU", 0))
ready, _ = ray.wait([quick.remote()], timeout=10)
print("1-CPU task started within 10 s:", bool(ready))

# %% [markdown]
# Zero free, and the small task queues. Ray schedules by what a task **declares**, never by
# what it uses. A cluster of tasks that reserve more than they use looks full while the
# machines idle. Declare what the task really needs (`num_cpus=0.5` is allowed).

# %% [markdown]
# ## Step 6: admission and backpressure
#
# A driver has 100 one-second tasks for a 4-CPU cluster. `.remote()` never refuses work: every
# task waits in its owner's queue until a worker is leased. **Predict:** submitted all at once,
# how many tasks are waiting at the peak? And if the driver keeps at most 8 in flight with
# `ray.wait`, when does the batch finish?


# %%
# faultlines/stories/admission.py
def flood(tasks: int = 100, window: int | None = None, cpus: int = 4) -> float:
    """Run `tasks` one-second tasks; with `window`, keep at most that many submitted and unfinished."""
    ray.init(num_cpus=cpus)

    @ray.remote
    def work(i):
        time.sleep(1)
        return i

    if window is None:
        ray.get([work.remote(i) for i in range(tasks)])  # admit everything at once
    else:
        in_flight: list = []
        for i in range(tasks):
            if len(in_flight) >= window:  # backpressure: wait for one to finish before the next
                _, in_flight = ray.wait(in_flight, num_returns=1)
            in_flight.append(work.remote(i))
        ray.get(in_flight)
    return sim.now()


# %%
from faultlines.stories.admission import peak_in_flight

for window in (None, 8):
    run = sim.run(lambda w=window: flood(window=w), seed=0)
    print(
        f"window={window}: done at t = {run.value:g} s, at most {peak_in_flight(run.records)} tasks in flight"
    )

# %% [markdown]
# Both finish at the same time: the cluster runs four at a time either way. Unbounded, the
# driver holds every task, with its arguments, in its queue; bounded, it holds eight. That is
# backpressure: the producer slows to the rate the cluster drains, so the signal reaches the one
# component that can slow down.

# %% [markdown]
# ## The widget: utilisation against the largest free block
#
# Slide the number of running 1-CPU tasks and the big task's size. Each point is a miniray
# run; the table shows the layout node by node.

# %%
packing_widget()

# %% [markdown]
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Count every failure.** In Step 2, run a batch with eight bad rows:
#    `run_batch(["ok1", "ok2"] + [f"bad{i}" for i in range(8)] + ["ok3", "ok4"], "all failures")`,
#    then the same with `"retryable only"`.
# 2. **Spread on purpose.** In Step 3, submit the fourteen tasks with
#    `small.options(scheduling_strategy="SPREAD")`.
# 3. **Declare what you use.** In Step 5, declare `num_cpus=1` for `mostly_waiting`.
# 4. **A wider window.** In Step 6, run `flood(window=50)`.
