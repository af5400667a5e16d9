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
# # Lab 9: recovery is not progress
#
# You will rebuild the cluster of Ray issue #65147, break it the way the seed did, and watch
# the placement-group scheduler stay busy while nothing moves. Every step asks you to predict
# first. Write your guess down, then run the cell.
#
# The cluster: a head with no CPUs and four 1-CPU workers labelled `L1, L2, L1, L2`. Each
# placement group needs one bundle on an L1 node and one on an L2 node.

# %%
import ipywidgets  # noqa: F401  (named in a cell so the browser's kernel loads it for the widget)

import miniray as ray
from faultlines.stories.pg_recovery import SeedCase, recovery_latency
from faultlines.widgets.pg_queue import queue_policy_widget
from miniray import placement, sim
from miniray.cluster_utils import Cluster
from miniray.util.placement_group import placement_group, placement_group_table, remove_placement_group

sim.set_seed(0)
cluster = Cluster(
    initialize_head=True,
    head_node_args={"num_cpus": 0, "_system_config": {"placement_group_queue_policy": "ray-2.60"}},
)
ray.init(address=cluster.address)
N1, N2, N3, N4 = [cluster.add_node(num_cpus=1, labels={"tier": t}) for t in ("L1", "L2", "L1", "L2")]
SELECTOR = [{"tier": "L1"}, {"tier": "L2"}]


def make_group(name):
    return placement_group(
        [{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD", name=name, bundle_label_selector=SELECTOR
    )


def show(*groups):
    for pg in groups:
        row = placement_group_table(pg)
        stats = row["stats"]
        print(
            f"t={sim.now():.6f}  {row['name']}: {row['state']:<12} "
            f"scheduling_attempt={stats['scheduling_attempt']:<9,} "
            f"highest_retry_delay_ms={stats['highest_retry_delay_ms']:g}"
        )


PG_A = make_group("PG_A")
PG_B = make_group("PG_B")
ray.get([PG_A.ready(), PG_B.ready()])
show(PG_A, PG_B)

# %% [markdown]
# ## Step 1: lose N2
#
# N2 held PG_A's L2 bundle. PG_A keeps its surviving bundle on N1 and asks again for an L2 node.
# The only other L2 node, N4, is full: PG_B's bundle sits there.
#
# **Predict:** after one virtual second, how many scheduling attempts has PG_A made?
# (a) one, (b) about ten, one every 100 ms, (c) hundreds of thousands.

# %%
cluster.remove_node(N2, allow_graceful=False)
sim.sleep(1.0)
show(PG_A, PG_B)

# %% [markdown]
# Answer: (c). A failed recovery goes back to rank 0 of the queue with no delay
# (`highest_retry_delay_ms=0`), is tried again, fails for the same reason, and repeats. miniray
# charges each attempt a few microseconds of virtual time, the speed that the write-up
# "Recovery Is Not Progress" measured. The counter moves; the state does not.
#
# ## Step 2: a group that needs nothing PG_A has
#
# A new node offers a resource nobody else uses, `PG_C_ONLY`. First prove the resource is
# there: a plain task asking for it runs at once.

# %%
cluster.add_node(num_cpus=0, resources={"PG_C_ONLY": 1})


@ray.remote(num_cpus=0, resources={"PG_C_ONLY": 1})
def control():
    return "PG_C_ONLY is free"


print(ray.get(control.remote()))

# %% [markdown]
# **Predict:** PG_C asks for `[{"PG_C_ONLY": 1}]`. Is it created within 5 virtual seconds?
# If not, how many scheduling attempts will it have had?

# %%
PG_C = placement_group([{"PG_C_ONLY": 1}], name="PG_C")
print("created within 5 s:", PG_C.wait(timeout_seconds=5))
show(PG_A, PG_C)

# %% [markdown]
# Answer: no, and **zero** attempts. Its resource is free (the control task ran), so PG_C did
# not lose a contest for capacity: the queue never gave it a turn. Only the front of the queue
# is ever considered, and the front is PG_A at rank 0, forever.
#
# ## Step 3: lose N3 as well
#
# **Predict:** N3 held PG_B's L1 bundle. What does PG_B need now, and who holds it?

# %%
cluster.remove_node(N3, allow_graceful=False)
sim.sleep(1.0)
show(PG_A, PG_B, PG_C)
print(placement.diagnose())

# %% [markdown]
# PG_A holds N1 (L1) and waits for L2; PG_B holds N4 (L2) and waits for L1. That is a
# wait-for cycle, `PG_A -> PG_B -> PG_A`. Both groups now take turns at rank 0, and PG_C still
# has zero attempts. `miniray.placement.diagnose()` names the two failures separately: the
# cycle, and the starvation.
#
# ## Step 4: change the allocation
#
# Retrying cannot break a cycle; something must free capacity. Remove PG_B.
#
# **Predict:** how long until PG_A *and* PG_C are both created?

# %%
start = sim.now()
remove_placement_group(PG_B)
ray.get([PG_A.ready(), PG_C.ready()])
print(f"both created {(sim.now() - start) * 1e6:.1f} µs after PG_B was removed")
show(PG_A, PG_C)
ray.shutdown()
cluster.shutdown()

# %% [markdown]
# Microseconds: the hot loop notices the change on its very next attempt. Strict priority
# buys fast recovery the moment capacity appears. Keep that in mind for step 6.
#
# ## Step 5: the backoff policy
#
# Ray PR #65970 keeps fresh recovery at rank 0, but sends a *failed* recovery back with its
# exponential backoff (100 ms, ×1.5, up to 1 s). In miniray the choice is a system config key,
# `placement_group_queue_policy`: `"ray-2.60"` (the hot loop) or `"backoff"`.
#
# `SeedCase` (from the course's `faultlines` package, imported in the first cell) rebuilds the
# same cluster in one line, so the next steps can compare policies.
#
# **Predict:** under `"backoff"`, with both N2 and N3 lost, is PG_C created? Is the cycle gone?

# %%
with SeedCase("backoff") as case:
    case.lose(2)
    case.lose(3)
    sim.sleep(3.0)
    case.add_pg_c()
    print("PG_C created within 1 s:", case.groups["PG_C"].wait(timeout_seconds=1))
    for name in ("PG_A", "PG_B", "PG_C"):
        print(f"{name}: {case.state(name):<12} attempts={case.attempts(name)}")
    print(case.diagnosis())

# %% [markdown]
# PG_C gets its turn at once and is created with one attempt. The cycle is still there:
# backoff is a queue policy, and a queue policy decides *when* to try again, not *what* may be
# taken away. PG_A and PG_B stay RESCHEDULING until capacity changes.
#
# ## Step 6: what backoff costs
#
# **Predict:** both groups have been stuck for 10 s. Then PG_B is removed. How long until PG_A
# is created, under each policy?

# %%
for policy in ("ray-2.60", "backoff"):
    print(
        f"{policy:>9}: PG_A created {recovery_latency(policy, stuck_for_s=10.0):.6f} s after capacity returned"
    )

# %% [markdown]
# Under `"ray-2.60"` the next attempt is microseconds away. Under `"backoff"` PG_A is cooling
# down and waits for its retry time, up to a second or two. Queue liveness is bought with
# recovery latency.
#
# ## Step 7: your own contract
#
# A policy is any function `policy(pg, now) -> "front" | "backoff"`, asked after each failed
# attempt that could succeed later. This one keeps strict priority for the first 10 ms of a
# recovery, then backs off. Change `WINDOW_S` and predict PG_A's attempt count before you run.

# %%
WINDOW_S = 0.010


def bounded(pg, now):
    if pg.state == "RESCHEDULING" and now - pg.recovering_since < WINDOW_S:
        return "front"
    return "backoff"


with SeedCase(bounded) as case:
    case.lose(2)
    case.add_pg_c()
    print("PG_C created within 1 s:", case.groups["PG_C"].wait(timeout_seconds=1))
    print("PG_A attempts:", case.attempts("PG_A"), " PG_C attempts:", case.attempts("PG_C"))

# %% [markdown]
# ## Step 8: a rescheduler breaks the cycle
#
# The other layer needs a different tool. `placement_group_rescheduler` is a hook called when a
# recovering group's attempt fails; it may release one group's surviving bundles (the victim),
# so the other can complete. Nothing like it ships in Ray 2.60. Choosing the victim is a
# disruption policy: here it is always PG_B.

# %%


def release_pg_b(ctx):
    if ctx.diagnosis().cycles:
        ctx.release_surviving("PG_B")


with SeedCase("ray-2.60", placement_group_rescheduler=release_pg_b) as case:
    case.lose(2)
    case.lose(3)
    print("PG_A created within 1 s:", case.groups["PG_A"].wait(timeout_seconds=1))
    for name in ("PG_A", "PG_B"):
        print(
            f"{name}: {case.state(name):<12} bundles on nodes: {sorted(case.row(name)['bundles_to_node_id'])}"
        )

# %% [markdown]
# PG_A completes; PG_B lost the bundle it still had and now recovers from nothing. Whether
# that trade is right for your job is a policy decision, which is the write-up's point.
#
# ## The widget: attempts per group under each queue policy
#
# The script: N2 lost at 0.5 s, PG_C asked for at 1.0 s, N3 lost at 1.5 s. Switch the policy
# and read the PG_C row. Switch the scheduler's speed to real Ray 2.60's, as recorded for this
# lesson on a smaller machine: the counters are smaller, PG_C's is still 0.

# %%
queue_policy_widget()

# %% [markdown]
# ## Try this
#
# 1. In step 1, lose N4 instead of N2 (`cluster.remove_node(N4, ...)`). Which group recovers
#    now, and does PG_C still starve? (PG_B spins; PG_C still gets zero attempts.)
# 2. In step 7, set `WINDOW_S = 0`. That is the `"backoff"` policy: PG_A's first failure
#    backs off at once and PG_C is created within microseconds. Set it to `1.0`: PG_A makes
#    about 222,000 attempts first, and `wait(timeout_seconds=1)` returns False for PG_C.
# 3. In step 5, add `case.cluster.add_node(num_cpus=1, labels={"tier": "L2"})` after the
#    losses, then `case.groups["PG_A"].wait(5)`. A new node is a change of capacity: PG_A
#    completes without anyone being disrupted, and PG_B still waits.
# 4. Pass `placement_group_attempt_cost_s=1e-3` to `SeedCase("ray-2.60", ...)` in a copy of step
#    7's cell: the loop slows to 1,000 attempts a second, and PG_C still gets none. Speed does
#    not cause the starvation; the rank does.
