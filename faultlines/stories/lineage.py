"""Lesson 3's stories: what lineage rebuilds after a node loss, and the three cliffs where it can't.

BIG values (above Ray's 100 KiB inline limit) live in the object store of the node that made
them, and in the store of every node that read them since (a `ray.get`, a task's argument): an
object is lost only when every copy is. Small values live with their owner. Every story runs on Ray's test
cluster layout (a head with no CPUs, worker nodes that carry a custom "w" resource) and removes
a node with `Cluster.remove_node`, as Ray's own reconstruction tests do.
"""

from __future__ import annotations

import time

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.liveness import Services

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


def pipeline(
    stages: int = 12,
    stage_s: float = 40.0,
    lose_after: int = 7,
    materialize: bool = False,
    persist_s: float = 50.0,
    reload_s: float = 5.0,
) -> float:
    """Seed 001's pipeline: stages chained through the object store; the node holding them dies
    after stage `lose_after`. With `materialize`, that stage's output is first written to durable
    storage (a task that takes `persist_s` and returns a small path) and read back by a `reload_s`
    task, whose lineage no longer reaches the lost stages. Returns when the last stage finished."""
    cluster, node = small_cluster()

    @ray.remote(resources={"w": 0.1})
    def stage(data, k):
        time.sleep(stage_s)
        return bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def persist(data, k):
        time.sleep(persist_s)
        return f"s3://bucket/job/stage-{k}"  # a small value: it lives with the driver

    @ray.remote(resources={"w": 0.1})
    def reload(path):
        time.sleep(reload_s)
        return bytes(BIG)

    ref = None
    for k in range(1, lose_after + 1):
        ref = stage.remote(ref, k)
    ray.wait([ref], fetch_local=False)  # stage `lose_after` is done; its output stays on the node
    if materialize:
        ref = reload.remote(ray.get(persist.remote(ref, lose_after)))

    cluster.remove_node(node)
    cluster.add_node(num_cpus=2, resources={"w": 1})
    for k in range(lose_after + 1, stages + 1):
        ref = stage.remote(ref, k)
    ray.wait([ref], fetch_local=False)
    return sim.now()
