"""Losing the head node (miniray/head): what keeps running, what waits, and how the driver ends."""

from __future__ import annotations

import time

import pytest

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.events import Kind


def _job(timeout_s: int = 20):
    sim.set_seed(0)
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "_system_config": {"gcs_rpc_server_reconnect_timeout_s": timeout_s}},
    )
    miniray.init(address=cluster.address)
    cluster.add_node(num_cpus=2, resources={"worker": 2})
    return cluster


@miniray.remote(num_cpus=1, resources={"worker": 1})
def work(seconds):
    time.sleep(seconds)
    return "done"


@miniray.remote(num_cpus=0, resources={"worker": 0.1})
class Counter:
    def __init__(self):
        self.n = 0

    def add(self):
        self.n += 1
        return self.n


def test_removing_the_connected_head_shuts_the_driver_down_and_refuses():
    cluster = _job()
    with pytest.raises(ValueError, match="connected to this Ray client is not allowed"):
        cluster.remove_node(cluster.head_node, allow_graceful=False)
    assert not miniray.is_initialized()
    cluster.shutdown()


def test_without_the_gcs_running_work_finishes_and_actors_answer():
    cluster = _job()
    counter = Counter.remote()
    assert miniray.get(counter.add.remote()) == 1
    assert miniray.get(work.remote(0)) == "done"  # leaves one idle worker on the node
    running = work.remote(3)
    time.sleep(1)
    cluster.head_node.kill_gcs_server()
    assert miniray.get(running, timeout=10) == "done"
    assert miniray.get(counter.add.remote(), timeout=5) == 2
    assert miniray.get(work.remote(0), timeout=5) == "done"  # the idle worker takes it
    busy = work.remote(8)
    with pytest.raises(miniray.exceptions.GetTimeoutError):  # would need a new worker process
        miniray.get(work.remote(0), timeout=5)
    with pytest.raises(miniray.exceptions.GetTimeoutError):  # the GCS creates actors
        miniray.get(Counter.remote().add.remote(), timeout=3)
    del busy
    miniray.shutdown()
    cluster.shutdown()


def test_the_driver_exits_after_the_reconnect_timeout():
    cluster = _job(timeout_s=20)
    miniray.get(work.remote(0))
    sim.kill_gcs(at=2.0)
    time.sleep(3)
    with pytest.raises(SystemExit) as info:
        miniray.get(Counter.remote().add.remote())  # never created: the driver waits, then exits
    assert str(info.value.code).startswith("Failed to connect to GCS within 20 seconds.")
    assert str(info.value.code).endswith("The program will terminate.")
    rt = sim.last_runtime()
    assert rt._kernel.now == pytest.approx(22.0)  # killed at 2 s, given up on 20 s later
    with pytest.raises(SystemExit):  # the process is gone: nothing else runs either
        miniray.get(work.remote(0))
    miniray.shutdown()
    cluster.shutdown()
    assert [r.kind for r in rt._log.of_kind(Kind.GCS_DIED, Kind.GCS_UNREACHABLE)] == [
        Kind.GCS_DIED,
        Kind.GCS_UNREACHABLE,
    ]


def test_placement_group_creation_blocks_until_the_driver_exits():
    cluster = _job(timeout_s=10)
    cluster.head_node.kill_gcs_server()
    with pytest.raises(SystemExit):
        miniray.util.placement_group([{"CPU": 1}])
    assert sim.last_runtime()._kernel.now == pytest.approx(10.0)
    miniray.shutdown()
    cluster.shutdown()


def test_only_the_head_node_runs_a_gcs():
    cluster = _job()
    worker = cluster.add_node(num_cpus=1)
    with pytest.raises(ValueError, match="not the head node"):
        worker.kill_gcs_server()
    miniray.shutdown()
    cluster.shutdown()


def test_same_seed_same_log():
    def scenario():
        cluster = _job(timeout_s=5)
        counter = Counter.remote()
        refs = [work.remote(1) for _ in range(3)] + [counter.add.remote()]
        sim.kill_gcs(at=0.5)
        time.sleep(1)
        try:
            miniray.get(refs + [Counter.remote().add.remote()])
        finally:
            cluster.shutdown()

    def log_of_one_run() -> str:
        try:
            sim.run(scenario, seed=3)
        except SystemExit:  # sim.run records Exceptions; the driver's exit is not one
            pass
        rt = sim.last_runtime()
        assert rt is not None
        return rt._log.text()

    first, second = log_of_one_run(), log_of_one_run()
    assert first == second
    assert "gcs.died" in first and "gcs.unreachable" in first
