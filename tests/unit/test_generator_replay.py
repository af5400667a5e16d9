"""A streaming generator re-run to rebuild a lost item must yield as many items as its first run
(miniray/generators.py), as Ray 2.60 checks it (the `generator_replay` conformance scenario)."""

import os

import pytest

from miniray import exceptions as E

BIG = 200_000  # above the inline limit: kept in the node's store, lost with it


def _stream(ray_cluster, counts):
    """A generator on a worker node yielding counts[run - 1] items; read there, then the node dies."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"w": 1})
    cluster.add_node(num_cpus=1, resources={"w": 1})  # where the re-run goes

    @ray.remote(max_retries=2, resources={"w": 0.1})
    def feed():
        runs.mark("feed")
        n = counts[min(runs["feed"], len(counts)) - 1]
        for i in range(n):
            yield bytes([runs["feed"], i]) + bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def head(blob):
        return list(blob[:2])

    refs = list(feed.remote())
    assert [ray.get(head.remote(r)) for r in refs] == [[1, i] for i in range(counts[0])]
    cluster.remove_node(node)
    return ray, runs, refs


def test_a_rerun_yielding_fewer_items_fails_the_missing_one(ray_cluster):
    ray, runs, refs = _stream(ray_cluster, (3, 2))
    with pytest.raises(E.StreamingGeneratorReplayInconsistentError) as info:
        ray.get(refs[2])
    assert "was re-executed and produced 2 objects, expected 3" in str(info.value)
    assert str(info.value).startswith("System error: Streaming generator task ")
    assert isinstance(info.value, E.RaySystemError)
    assert runs["feed"] == 2


def test_a_rerun_yielding_more_items_fails_the_stream_at_the_extra_one(ray_cluster):
    ray, runs, refs = _stream(ray_cluster, (2, 3))
    with pytest.raises(E.StreamingGeneratorReplayInconsistentError, match="produced 3 objects, expected 2"):
        ray.get(refs[0])


def test_a_rerun_yielding_as_many_rebuilds_the_item(ray_cluster):
    ray, runs, refs = _stream(ray_cluster, (2, 2))
    assert list(ray.get(refs[1])[:2]) == [2, 1]


def test_a_retry_after_a_crash_is_not_checked(ray_cluster):
    ray, _cluster, runs = ray_cluster
    _cluster.add_node(num_cpus=1)

    @ray.remote(max_retries=1)
    def crashes_first():
        runs.mark("run")
        first = runs["run"] == 1
        for i in range(3 if first else 1):
            if first and i == 2:
                os._exit(1)
            yield i

    assert [ray.get(r) for r in crashes_first.remote()] == [0, 1]
