"""The seed's three dashboard diagnoses, read off miniray's tools: the spill cliff (see
test_observability_spill.py), a straggler in the timeline, and a leaked ref in `ray memory`."""

from faultlines import diagnoses

GB = 10**9


def test_a_skewed_partition_is_one_long_bar_and_the_reduce_waits_for_it():
    r = diagnoses.straggler(partitions=10, items=100, skew=20, per_item_s=0.02)
    assert sorted(r["map_s"]) == [2.0] * 9 + [40.0]  # every map bar ~2 s except one at 40 s
    assert r["straggler_ratio"] == 20.0  # the partition is 20x larger
    assert r["reduce_starts_s"] == 40.0  # the reduce sat idle until the straggler finished
    assert r["total"] == 9 * sum(range(100)) + sum(range(2000))


def test_refs_held_in_a_growing_list_keep_the_store_climbing_and_ray_memory_shows_them():
    r = diagnoses.leak(iterations=12, block=GB, store=8 * GB, hold=True)
    assert r["used_bytes"] == [n * GB for n in range(1, 9)] + [8 * GB] * 4  # never drops; then full
    assert r["driver_refs"] == list(range(1, 13))  # one more live driver-owned ref per iteration
    assert r["spilled_bytes"] == 4 * GB  # past the store size the leak spills: the cliff follows
    fill = [v for _, v in r["fill_pct"]]
    assert fill == sorted(fill) and fill[-1] == 100.0  # monotonic climb
    assert r["report"].count("(put object)") == 12 and r["report"].count("Driver  (put object)") == 12
    assert "Spilled 3815 MiB, 4 objects" in r["report"]  # ray memory's aggregate: 4 GB on disk


def test_dropping_the_refs_lets_the_store_drain():
    r = diagnoses.leak(iterations=12, block=GB, store=8 * GB, hold=False)
    assert r["used_bytes"] == [0] * 12 and r["driver_refs"] == [0] * 12
    assert r["spilled_bytes"] == 0
    fill = r["fill_pct"]  # a sawtooth: one block while a task works on it, then nothing
    assert [v for _, v in fill] == [12.5, 0.0] * 12
    assert [t for t, v in fill if v][:3] == [0.0, 1.5, 3.0]


def test_diagnoses_replay_exactly():
    assert diagnoses.straggler() == diagnoses.straggler()
    a, b = diagnoses.leak(iterations=4), diagnoses.leak(iterations=4)
    assert a == b
