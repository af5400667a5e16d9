"""Lesson 14's story: re-executions that must give the same values. A task draws random numbers
and a streaming generator reads a table; a consumer reads both on the node that made them, the
node dies, and the consumer reads them again from lineage. Unseeded, the rebuilt draws differ
(no error); unkeyed, the generator's re-run streams a row more and Ray fails the stream."""

from __future__ import annotations

import random
import time

import miniray as ray
from miniray import sim
from miniray.cluster_utils import Cluster

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
