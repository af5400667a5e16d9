"""`miniray.util.state` beyond tasks and actors: objects, nodes, workers, placement groups, the
task summary (`ray summary tasks`) and the memory view (`ray memory`)."""

import time

import pytest

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util import state
from miniray.util.placement_group import placement_group

BIG = 200_000  # past the 100 KiB inline limit: a copy in the node's object store


def test_summarize_tasks_counts_by_function_and_state_like_ray_summary(ray):
    @ray.remote
    def ok():
        return 1

    @ray.remote(max_retries=0)
    def bad():
        raise ValueError("no")

    @ray.remote
    def slow():
        time.sleep(100)

    ray.get([ok.remote() for _ in range(3)])
    bad.remote()
    slow.remote()
    sim.sleep(1)
    summary = state.summarize_tasks()
    rows = summary.cluster.summary
    assert rows["ok"]["state_counts"] == {"FINISHED": 3} and rows["ok"].type == "NORMAL_TASK"
    assert rows["bad"].state_counts == {"FAILED": 1}
    assert rows["slow"].state_counts == {"RUNNING": 1}
    assert summary["cluster"]["total_tasks"] == 5 and summary.cluster.summary_by == "func_name"
    slow_row = state.list_tasks(filters=[("name", "=", "slow")])[0]
    assert slow_row.func_or_class_name == "slow" and slow_row.actor_id is None
    assert slow_row.worker_id in {w.worker_id for w in state.list_workers() if w.is_alive}


def test_list_objects_and_memory_show_owner_size_where_and_reference_type(ray):
    @ray.remote
    def make(n):
        return bytes(n)

    @ray.remote
    def hold(x):
        time.sleep(10)
        return len(x)

    small = make.remote(10)
    big = make.remote(BIG)
    put = ray.put(b"x" * BIG)
    ray.get([small, big])
    waiting = hold.remote(put)
    rows = {r.object_id: r for r in state.list_objects()}
    assert rows[small.hex()]["where"] == "INLINED" and rows[small.hex()].inlined
    assert rows[big.hex()].where == "IN_MEMORY" and rows[big.hex()].pinned_in_memory
    assert rows[big.hex()].node == "node:0" and rows[big.hex()].call_site == "make (task call)"
    assert rows[put.hex()].call_site == "(put object)" and rows[put.hex()].type == "DRIVER"
    assert rows[put.hex()].reference_type == "USED_BY_PENDING_TASK"  # `hold` takes it and runs
    assert rows[big.hex()].reference_type == "LOCAL_REFERENCE"
    assert rows[waiting.hex()].where == "PENDING"
    assert rows[put.hex()].object_size >= BIG and rows[put.hex()].pid == rows[big.hex()].pid
    mem = state.memory()
    assert [r.object_id for r in mem] == [r.object_id for r in state.list_objects()]
    assert mem.total(where="IN_MEMORY") == rows[big.hex()].object_size + rows[put.hex()].object_size
    text = miniray.memory_summary()
    assert "Object references status" in text and "(put object)" in text and "USED_BY_PENDING_TASK" in text
    assert "node:0:" in text and "% full" in text
    del big
    assert big_gone(rows)


def big_gone(rows):
    live = {r.object_id for r in state.list_objects()}
    return len(live) == len(rows) - 1


def test_filters_work_on_the_new_lists(ray):
    keep = [ray.put(b"b"), ray.remote(lambda: b"small").remote()]  # put always uses the store
    ray.get(keep[1])
    assert [r.object_id for r in state.list_objects(filters=[("where", "=", "IN_MEMORY")])] == [keep[0].hex()]
    assert [r.object_id for r in state.list_objects(filters=[("where", "!=", "IN_MEMORY")])] == [
        keep[1].hex()
    ]
    with pytest.raises(ValueError, match="use '=' or '!='"):
        state.list_objects(filters=[("where", ">", "x")])


def test_list_nodes_shows_state_resources_and_store_use(cluster):
    n1 = cluster.add_node(num_cpus=2, object_store_memory=10 * BIG, labels={"zone": "a"})
    kept = miniray.put(b"x" * BIG)  # owned and stored on the head (the driver's node)
    cluster.remove_node(n1)
    rows = state.list_nodes()
    assert [(r.node_name, r.state, r.is_head_node) for r in rows] == [
        ("node:0", "ALIVE", True),
        ("node:1", "DEAD", False),
    ]
    assert rows[1].labels["zone"] == "a" and rows[1].resources_total["CPU"] == 2
    assert rows[1].object_store_memory == 10 * BIG
    assert rows[0].object_store_used > BIG and rows[0].object_store_fill_pct > 0
    assert state.list_nodes(filters=[("state", "=", "DEAD")])[0].node_id == n1.node_id
    del kept
    assert state.list_nodes()[0].object_store_used == 0  # the last ref went: the store let it go


def test_list_workers_includes_the_dead_with_why_they_exited(cluster):
    node = cluster.add_node(num_cpus=1)

    @miniray.remote(max_retries=0)
    def stay():
        time.sleep(100)

    @miniray.remote
    class A:
        def ping(self):
            return 1

    a = A.remote()
    miniray.get(a.ping.remote())
    stay.remote()
    sim.sleep(1)
    miniray.kill(a)
    cluster.remove_node(node)
    rows = state.list_workers()
    assert rows[0].worker_type == "DRIVER" and rows[0].is_alive
    dead = {r.kind: r for r in rows if not r.is_alive}
    assert dead["actor"].exit_type == "INTENDED_USER_EXIT" and dead["actor"].exit_detail == "killed"
    assert dead["task"].exit_type == "NODE_DIED" and dead["task"].node_name == "node:1"
    assert all(r.worker_type == "WORKER" for r in rows[1:])


def test_list_placement_groups_reports_state_and_scheduling_attempts():
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=c.address)
    try:
        c.add_node(num_cpus=1)
        pg = placement_group([{"CPU": 1}], name="one")
        miniray.get(pg.ready())
        placement_group([{"CPU": 5}], name="too_big")
        sim.sleep(1)
        rows = {r.name: r for r in state.list_placement_groups()}
        assert rows["one"].state == "CREATED" and rows["one"].scheduling_attempt == 1
        assert rows["too_big"].state == "PENDING"
        assert rows["too_big"].stats["scheduling_state"] == "INFEASIBLE"
        assert rows["one"]["bundles"] == {0: {"CPU": 1.0}}
    finally:
        miniray.shutdown()
        c.shutdown()
