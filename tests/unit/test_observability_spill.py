"""Object store capacity and spilling: the spill cliff (lesson 14, section 5, the worked number).

Nothing degrades while the live data fits the store; past its size the oldest objects go to
disk and each read of one pays size / 500 MB/s of virtual time, all at once.
"""

import time

import pytest

import miniray
from faultlines import diagnoses
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util import state

GB = 10**9


@pytest.fixture
def store():
    """One 4-CPU node whose object store holds 10 GB."""
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 4, "object_store_memory": 10 * GB})
    miniray.init(address=c.address)
    yield c
    miniray.shutdown()
    c.shutdown()


@miniray.remote
def size_of(block):
    return block.nbytes


def where(ref):
    return next(r.where for r in state.list_objects() if r.object_id == ref.hex())


def test_the_cliff_read_latency_is_zero_until_the_store_is_full_then_one_disk_read_at_once():
    rows = diagnoses.spill_sweep(store=10 * GB, block=GB, max_blocks=13)
    assert [r["fill_pct"] for r in rows] == [10.0 * n for n in range(1, 11)] + [100.0] * 3
    assert [r["read_s"] for r in rows] == [0.0] * 10 + [2.0] * 3  # 1 GB at 500 MB/s
    assert [r["spilled_bytes"] for r in rows] == [0] * 10 + [GB, 2 * GB, 3 * GB]


def test_the_seeds_worked_number_2gb_spilled_4s_a_touch_200s_for_50_readers():
    r = diagnoses.spill_cliff(live_blocks=14, block=2 * GB, extra=4 * GB, store=30 * GB, readers=50)
    assert r["before"] == {"fill_pct": pytest.approx(93.333333), "read_s": 0.0}  # 28 of 30 GB: free reads
    assert r["spilled_bytes"] == 2 * GB and r["spilled_objects"] == 1  # 32 GB > 30 GB: ~2 GB to disk
    assert r["after_fill_pct"] == 100.0
    assert r["read_s_each"][0] == 4.0  # 2 GB / 0.5 GB/s: one touch, with the disk to itself
    assert max(r["read_s_each"]) == 16.0  # four readers at once queue on the node's one disk
    assert r["disk_seconds"] == 200.0  # 50 x 4 s of disk reads that did not happen before
    assert r["elapsed_s"] == pytest.approx(200.0)  # the one disk is the bound, not the 4 CPUs
    assert r["in_memory_read_s"] == 0.0  # the new block is in memory: still the fast path


def test_oldest_objects_spill_first_and_a_read_restores_when_room_appears(store):
    refs = [miniray.put(sim.Blob(4 * GB, str(i))) for i in range(3)]
    assert [where(r) for r in refs] == ["SPILLED", "IN_MEMORY", "IN_MEMORY"]
    t0 = sim.now()
    assert miniray.get(refs[0]) == sim.Blob(4 * GB, "0")
    assert sim.now() - t0 == 8.0  # the driver's read pays the disk too: 4 GB at 500 MB/s
    assert where(refs[0]) == "SPILLED"  # no room to bring it back without spilling another
    del refs[1]
    t0 = sim.now()
    miniray.get(refs[0])
    assert sim.now() - t0 == 8.0 and where(refs[0]) == "IN_MEMORY"  # read once more, restored
    t0 = sim.now()
    miniray.get(refs[0])
    assert sim.now() == t0  # from memory: free
    assert [r.kind for r in sim.event_log() if r.kind.startswith("object.")][:2] == [
        "object.spill",
        "object.free",
    ]
    assert sim.event_log()[-1].kind == "object.restore"


def test_a_task_reading_a_spilled_argument_takes_longer_by_exactly_the_disk_time(store):
    refs = [miniray.put(sim.Blob(4 * GB, str(i))) for i in range(3)]
    cold, warm = size_of.remote(refs[0]), size_of.remote(refs[2])
    assert miniray.get([cold, warm]) == [4 * GB] * 2
    events = {e["args"]["attempt"]: e for e in miniray.timeline() if e["ph"] == "X"}
    assert events["size_of#1/1"]["dur"] == 8e6 and events["size_of#1/1"]["args"]["spilled_read_s"] == 8.0
    assert events["size_of#2/1"]["dur"] == 0 and "spilled_read_s" not in events["size_of#2/1"]["args"]
    spills = [e for e in miniray.timeline() if e["name"] == "spill"]
    assert len(spills) == 1 and spills[0]["args"]["size"] == 4 * GB


def test_a_get_inside_a_task_pays_the_disk_time_too(store):
    refs = [miniray.put(sim.Blob(4 * GB, str(i))) for i in range(3)]

    @miniray.remote
    def reader(boxed):
        t0 = sim.now()
        miniray.get(boxed[0])  # a ref inside a list is not resolved for the task: it gets it itself
        return sim.now() - t0

    @miniray.remote
    def busy():
        time.sleep(3)  # overlapping work: the reader blocks rather than fast-forwarding

    assert miniray.get(reader.remote([refs[0]])) == 8.0
    b = busy.remote()
    assert miniray.get(reader.remote([refs[0]])) == 8.0
    miniray.get(b)


def test_an_object_larger_than_the_free_store_goes_straight_to_disk(store):
    small = miniray.put(sim.Blob(GB))
    huge = miniray.put(sim.Blob(12 * GB))  # bigger than the whole store
    assert where(huge) == "SPILLED" and where(small) == "SPILLED"  # everything went to make room, in vain
    fallback = [r for r in sim.event_log() if r.kind == "object.spill" and r.get("fallback")]
    assert len(fallback) == 1 and fallback[0]["size"] == 12 * GB


def test_spilled_copies_die_with_their_node_and_lineage_rebuilds_them():
    sim.set_seed(0)
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=c.address)
    try:
        node = c.add_node(num_cpus=1, object_store_memory=3 * GB)

        @miniray.remote
        def make(i):
            return sim.Blob(2 * GB, str(i))

        a, b = make.remote(0), make.remote(1)
        miniray.get([a, b])
        assert [where(a), where(b)] == ["SPILLED", "IN_MEMORY"]
        c.remove_node(node)
        c.add_node(num_cpus=1, object_store_memory=3 * GB)
        assert miniray.get(a) == sim.Blob(2 * GB, "0")  # rebuilt from lineage on the new node
        assert [r["task"] for r in sim.event_log() if r.kind == "task.reconstruct"] == ["make"]
        assert state.list_nodes()[1].spilled_bytes == 0  # the dead node's disk is gone with it
    finally:
        miniray.shutdown()
        c.shutdown()


def test_ray_spilling_threshold_can_be_set_to_rays_0_8():
    sim.set_seed(0)
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "object_store_memory": 10 * GB,
            "_system_config": {"object_spilling_threshold": 0.8},
        },
    )
    miniray.init(address=c.address)
    try:
        refs = [miniray.put(sim.Blob(GB, str(i))) for i in range(9)]
        assert [where(r) for r in refs].count("SPILLED") == 1  # 9 GB > 80% of 10 GB
    finally:
        miniray.shutdown()
        c.shutdown()


def test_blob_rejects_a_size_that_is_not_a_byte_count():
    with pytest.raises(ValueError, match="2 \\* 10\\*\\*9"):
        sim.Blob(2e9)


def test_a_freed_spilled_object_leaves_the_disk(store):
    refs = [miniray.put(sim.Blob(4 * GB, str(i))) for i in range(3)]
    assert state.list_nodes()[0].spilled_bytes == 4 * GB
    del refs[0]
    assert state.list_nodes()[0].spilled_bytes == 0
    assert [r.kind for r in sim.event_log()][-1] == "object.free"
