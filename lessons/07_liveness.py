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
# # Lab 7: crashed or just slow
#
# A scheduler cannot see inside a node. It sends probes, and it counts the ones that go
# unanswered. In this lab you crash, hang and pause nodes on miniray's virtual clock, watch
# the failure detector decide, and then deal with what it gets wrong: a node it declared dead
# that was only slow.
#
# The detector: a probe every `probe_interval_s` (5 s here); a silent node is SUSPECT after one
# missed probe and DEAD after `unhealthy_threshold` (3) missed probes in a row. miniray's
# detector takes a crashed node as DEAD at its next probe, a shortcut: a crashed host answers
# nothing and times out like a hang, and Ray counts every failed check toward its threshold
# (the lesson page shows Ray's own log of it). Predict before each run.

# %%
import time

import ipywidgets  # noqa: F401  (named in a cell so the browser's kernel loads it for the widget)

import miniray as ray
from faultlines.stories.zombie import attempt_id, log_lines
from faultlines.widgets.detector_tradeoff import detector_widget
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.liveness import Services


def fresh_cluster(probe_interval_s=5, unhealthy_threshold=3):
    """A head with no CPUs and two 1-CPU workers, N1 and N2, with the failure detector on."""
    ray.shutdown()
    sim.set_seed(0)
    liveness = {"probe_interval_s": probe_interval_s, "unhealthy_threshold": unhealthy_threshold}
    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": {"liveness": liveness}}
    )
    ray.init(address=cluster.address)
    return cluster, cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)


def show_log(cluster):
    """The event log's lines about attempts, probes, verdicts and effects."""
    names = {n.node_id: n.name for n in cluster.list_all_nodes()}
    print("\n".join(log_lines(sim.event_log(), names)))


@ray.remote
def work():
    time.sleep(20)  # twenty virtual seconds
    return "done"


# %% [markdown]
# ## Step 1: a crash
#
# A 20-second task runs on N1 (`node:1` in the log). N1 crashes at t = 7 s.
#
# **Predict:** when does the detector declare N1 DEAD? Does it pass through SUSPECT first?

# %%
cluster, N1, N2 = fresh_cluster()
ref = work.remote()
sim.kill_node(N1, at=7)
print(ray.get(ref), "at t =", sim.now())
show_log(cluster)

# %% [markdown]
# DEAD at the next probe, t = 10, with no SUSPECT: miniray's detector takes a crash as
# conclusive at one probe (Ray would count its failed checks up to its threshold first).
# The attempt on N1 fails at that verdict, and the re-run on N2 starts one second of retry
# delay later: find both in the log above (see "where real Ray differs" on the page for how
# Ray learns of it).
#
# ## Step 2: a hang
#
# Now N1 stops answering at t = 2 but its processes are still there.
#
# **Predict:** at which probe times does N1 fail, when is it declared DEAD, and when does the
# task finish?

# %%
cluster, N1, N2 = fresh_cluster()
ref = work.remote()
sim.hang_node(N1, at=2)
print(ray.get(ref), "at t =", sim.now())
show_log(cluster)

# %% [markdown]
# Probes fail at 5, 10 and 15; DEAD at 15. The re-run starts one second later (the retry
# delay) and takes its full 20 s: the task finishes at 36 instead of 20.
#
# ## Step 3: a short pause
#
# A 7-second garbage-collection pause from t = 2.
#
# **Predict:** is the task re-run?

# %%
cluster, N1, N2 = fresh_cluster()
ref = work.remote()
sim.pause_node(N1, 7.0, at=2)
print(ray.get(ref), "at t =", sim.now())
show_log(cluster)

# %% [markdown]
# One missed probe (t = 5) makes N1 SUSPECT; it answers at t = 10 and is ALIVE again. One
# attempt, no re-run. The threshold absorbed the pause.
#
# ## Step 4: a long pause, and a zombie
#
# This task owns shard 7 for a while: it takes a lease (10 s), computes for 10 s, sends an
# email, and writes the shard's result. N1 pauses for 30 s from t = 2.
#
# **Predict:** how many emails are sent? Whose result is in the table at the end, the first
# attempt's or the re-run's?

# %%
cluster, N1, N2 = fresh_cluster()
svc = Services()


@ray.remote
def write_shard():
    me = attempt_id()
    svc.leases.acquire("shard-7", ttl_s=10)
    time.sleep(10)
    svc.db.insert("outbox", me, "shard 7 is done")  # an email: an effect in the world
    svc.db.upsert("results", "shard-7", f"result from {me}")
    return "written"


ref = write_shard.remote()
sim.pause_node(N1, 30.0, at=2)
print("ray.get:", ray.get(ref), "at t =", sim.now())
sim.sleep(10)  # let N1 wake up
show_log(cluster)
print("emails sent:", len(svc.db.rows("outbox")))
print("results:", svc.db.rows("results"))

# %% [markdown]
# Two emails, and the table holds the **first** attempt's result. At t = 15 the detector
# presumed N1 dead and the task was re-run on N2 from t = 16; it wrote at t = 26 and
# `ray.get` returned. But N1 was only paused. At t = 32 it woke up, and its attempt carried on
# from where it stopped: it sent its email and overwrote the newer result. A **zombie**.
#
# No threshold prevents this. Raise it, and real deaths take longer to notice; lower it, and
# more pauses become zombies. The detector cannot tell slow from dead. The fix is to make the
# duplicate harmless.
#
# ## Step 5: exclusive commit
#
# Each attempt writes to a private path and then claims the destination with an atomic
# rename that refuses to replace an existing file (`svc.blobs.commit`). The first attempt to
# finish wins; the other discards its output.
#
# **Predict:** which attempt's output ends up in `out/shard-7`? How many emails now?

# %%
cluster, N1, N2 = fresh_cluster()
svc = Services()


@ray.remote
def write_shard_commit():
    me = attempt_id()
    svc.leases.acquire("shard-7", ttl_s=10)
    svc.blobs.put(f"tmp/{me}", f"result from {me}")  # private to this attempt
    time.sleep(10)
    svc.db.insert("outbox", me, "shard 7 is done")
    return "committed" if svc.blobs.commit(f"tmp/{me}", "out/shard-7") else "discarded"


ref = write_shard_commit.remote()
sim.pause_node(N1, 30.0, at=2)
print("ray.get:", ray.get(ref))
sim.sleep(10)
print(svc.text())
print("files:", svc.blobs.files)
print("emails sent:", len(svc.db.rows("outbox")))

# %% [markdown]
# One output, the re-run's: it finished first (t = 26) and claimed the path; the zombie's
# rename failed at t = 32 and it deleted its private copy. But there are still two emails.
# Exclusive commit protects the framework's own output and nothing else. An insert, an API
# call or an email happens whoever wins the commit.
#
# ## Step 6: fencing tokens
#
# The lease service hands out a token that grows with every grant: the zombie got
# `shard-7:1`, the re-run `shard-7:2`. If the store is given the token with each write and
# refuses any token older than the highest it has seen, the zombie's write bounces.
#
# **Predict:** which write is refused, and what happens to the zombie?

# %%
cluster, N1, N2 = fresh_cluster()
svc = Services()


@ray.remote
def write_shard_fenced():
    me = attempt_id()
    token = svc.leases.acquire("shard-7", ttl_s=10)
    svc.db.upsert("results", "shard-7", f"started by {me}", token=token)  # the store learns our token
    time.sleep(10)
    svc.db.upsert("results", "shard-7", f"result from {me}", token=token)
    return "written"


ref = write_shard_fenced.remote()
sim.pause_node(N1, 30.0, at=2)
print("ray.get:", ray.get(ref))
sim.sleep(10)
print(svc.text())
print("results:", svc.db.rows("results"))

# %% [markdown]
# The zombie's write at t = 32 carries token 1; the store has seen token 2, so it raises
# `StaleTokenError` and the zombie stops there. The check lives in the **store**, not in the
# writer: a paused process cannot know it has been replaced, so it cannot be trusted to check.
#
# ## The widget: interval × threshold
#
# Drag the probe interval and the number of misses, and set the pause length to the longest
# pause you expect (a full GC, a saturated NIC). The chart shows how often such a pause is
# declared a death; the text shows what that setting costs when a node really hangs.

# %%
detector_widget()

# %% [markdown]
# ## Try this
#
# 1. In step 3, make the pause 12 s (`sim.pause_node(N1, 12.0, at=2)`). It misses the probes at
#    5 and 10 and answers at 15: SUSPECT, then ALIVE, one attempt. Start the same pause at
#    `at=4.5`: it misses 5, 10 and 15, and the task is re-run. Same pause, different luck; the
#    widget's 40 % for a 12 s pause is this.
# 2. In step 2, call `fresh_cluster(unhealthy_threshold=1)`. The hang is declared DEAD at the
#    first missed probe, t = 5. Do the same in step 3: the 7 s pause is now re-run too.
# 3. In step 4, make the pause 8 s. N1 is SUSPECT at 5 and answers at 10: one attempt, one
#    email, the right result.
# 4. In step 6, drop `token=token` from the *last* `upsert`. The store can only check tokens it
#    is given: the zombie's write lands at t = 32 and the table holds its stale result again.
