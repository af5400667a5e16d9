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
# # Lab 14: replays that must not differ
#
# A task draws three random numbers and a streaming generator streams a table's rows. A consumer
# reads both on the node that made them, the table changes, the node dies, and the consumer reads
# the same refs again: Ray rebuilds them by running the two tasks again. Predict before every run.

# %%
import functools
import random
import time

import ipywidgets  # noqa: F401  (the lab loads a package only once a cell imports it by name)

import miniray as ray
from faultlines.timeline import from_trace, render_text
from miniray import sim
from miniray.cluster_utils import Cluster

# %%
# faultlines/stories/replays.py
BIG = 200_000  # bytes: above the inline limit, so a value lives in its node's object store


def small_cluster():
    """A head with no CPUs and one worker node with a custom "w" resource, as in lesson 3."""
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    node = cluster.add_node(num_cpus=2, resources={"w": 1})
    ray.init(address=cluster.address)
    return cluster, node


@sim.external
class Table:
    """A simulated table outside the cluster: rows are added while the job runs."""

    def __init__(self, rows):
        self.versions = [list(rows)]  # every version it has had: a version number is a key

    @property
    def version(self):
        return len(self.versions) - 1

    def write(self, rows):
        self.versions.append(list(rows))

    def read(self, version=None):
        """The rows it holds now, or as they were at `version` (the same rows every time)."""
        return list(self.versions[-1 if version is None else version])


def replays(seed: int | None = None, snapshot: bool = False, change: str = "append") -> dict:
    """Draw three numbers and stream a table's rows on node w; read both there; the table
    changes (a row is appended, deleted or edited, or nothing) and the node dies; read both
    again. A `seed` and a `snapshot` (the table's version, passed as an argument) make each
    re-run repeat itself."""
    cluster, node = small_cluster()
    table = Table(["a", "b", "c"])

    @ray.remote(resources={"w": 0.1})
    def sample(n, seed=None):
        rng = random.Random(time.time() if seed is None else seed)  # no seed: the clock picks one
        return [rng.randint(0, 99) for _ in range(n)], bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def rows(table, version=None):
        for row in table.read(version):
            yield row, bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def peek(item):
        return item[0]  # the small part: what a consumer computes from

    drawn = sample.remote(3, seed)
    stream = list(rows.remote(table, table.version if snapshot else None))
    first = {"draws": ray.get(peek.remote(drawn)), "rows": [ray.get(peek.remote(r)) for r in stream]}
    time.sleep(1)
    now = table.read()
    moved = {"append": now + ["d"], "delete": now[:-1], "edit": ["A"] + now[1:]}
    table.write(moved.get(change, now))  # the table moves on
    cluster.remove_node(node)  # every value above lived only on node w
    cluster.add_node(num_cpus=2, resources={"w": 1})
    again = {"draws": ray.get(peek.remote(drawn)), "rows": []}
    for ref in stream:
        try:
            again["rows"].append(ray.get(peek.remote(ref)))
        except ray.exceptions.RayError as error:
            again["rows"].append(type(error).__name__)
    return {"first": first, "again": again}


# %% [markdown]
# **Predict**: after the rebuild, are the three draws the same? Which of the rows `a`, `b`, `c`
# come back, and what does the consumer get for the others? (The table gained a row, `d`.)

# %%
run = sim.run(replays, seed=0)
print("first read:", run.value["first"])
print("after the rebuild:", run.value["again"])
print(render_text(from_trace(ray.timeline()), per_second=4))

# %% [markdown]
# The rebuilds in the event log: the owner (the driver) resubmits `sample` and `rows`, each as
# attempt 2 of its task.

# %%
print("\n".join(line for line in run.log_text.splitlines() if "reconstruct" in line or "#1/2" in line))

# %% [markdown]
# ## Change one thing
#
# **Predict** each run first.
#
# 1. Pass a seed: `replays(seed=7)`. The draws repeat; the rows still fail.
# 2. Pass the table's version: `replays(snapshot=True)`. The rows repeat; the draws still differ.
# 3. Edit a row instead of adding one: `replays(change="edit")`. The count is the same, so Ray
#    raises nothing: the consumer silently gets `A` where it read `a`.
# 4. Delete a row: `replays(change="delete")`. A re-run one row short fails the stream too.

# %%
for kwargs in (
    {"seed": 7},
    {"snapshot": True},
    {"change": "edit"},
    {"change": "delete"},
    {"seed": 7, "snapshot": True},
):
    value = sim.run(functools.partial(replays, **kwargs), seed=0).value
    print(kwargs, "->", value["again"])

# %% [markdown]
# ## A retry after a crash
#
# A crash is a replay too: the retry runs the generator from its start. Ray keeps the items the
# crashed attempt had yielded and takes the retry's items past them, without checking the count.
# Here the retry reads a table that has grown meanwhile. **Predict** how many items the driver gets.


# %%
def crash_replay():
    cluster, node = small_cluster()
    table = Table(["a", "b", "c"])

    @ray.remote(resources={"w": 0.1}, max_retries=1)
    def rows(table):
        for row in table.read():
            time.sleep(1)
            yield row

    stream = rows.remote(table)
    table.write(["a", "b", "c", "d"])  # a row arrives while the first attempt runs
    return [ray.get(ref) for ref in stream]


print(sim.run(crash_replay, seed=0, faults=["crash rows#1/1 step=2"]).value)

# %% [markdown]
# ## The widget
#
# Choose where `sample` takes its seed, how `rows` reads the table, and how the table changes
# before the node dies. The chart draws the three draws as first read and as rebuilt; the table
# lists every value side by side.

# %%
from faultlines.widgets.replay_check import replay_check_widget

replay_check_widget()
