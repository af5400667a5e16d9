"""Per-node failure attribution, blacklisting, and retryable vs terminal by exception class."""

import pytest

from miniray import exceptions as E
from miniray import sim
from miniray.liveness.attribution import RETRYABLE, Attribution, TransientError, classify
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy


def test_classify_by_exception_class():
    assert classify(TransientError("disk")) == "retryable"
    assert classify(ConnectionError()) == "retryable"
    assert classify(TimeoutError()) == "retryable"
    assert classify(E.WorkerCrashedError()) == "retryable"
    assert classify(ValueError("malformed row")) == "terminal"
    assert classify(KeyError("x")) == "terminal"
    assert classify(RuntimeError("unknown")) == "terminal"  # unknown: don't amplify it


def test_classify_unwraps_a_task_error(ray):
    @ray.remote(max_retries=0)
    def bad():
        raise ValueError("malformed input")

    with pytest.raises(E.RayTaskError) as info:
        ray.get(bad.remote())
    assert classify(info.value) == "terminal"


def test_terminal_error_is_not_retried_retryable_is(ray):
    calls = []

    @ray.remote(max_retries=3, retry_exceptions=list(RETRYABLE))
    def parse(kind):
        calls.append(kind)
        if kind == "bad-input":
            raise ValueError("malformed")
        if len([c for c in calls if c == "flaky"]) < 3:
            raise TransientError("flaky disk")
        return "ok"

    with pytest.raises(ValueError):
        ray.get(parse.remote("bad-input"))
    assert ray.get(parse.remote("flaky")) == "ok"
    starts = [r["attempt"] for r in sim.event_log() if r.kind == "task.start"]
    assert starts == ["parse#1/1", "parse#2/1", "parse#2/2", "parse#2/3"]


def test_bad_node_is_blacklisted_and_then_avoided(ray_cluster):
    ray, cluster, _ = ray_cluster
    nodes = [cluster.add_node(num_cpus=1) for _ in range(3)]
    bad = nodes[0]
    attribution = Attribution(min_failures=3, ratio=3.0)

    @ray.remote(max_retries=5, retry_exceptions=list(RETRYABLE))
    def work(i):
        from miniray import context

        node = context.current()._current[-1].worker.node
        if node is bad:
            raise TransientError(f"corrupt local cache on {node.name}")
        return i

    assert ray.get([work.remote(i) for i in range(12)]) == list(range(12))
    assert attribution.failures[bad.name] == 3
    assert set(attribution.blacklisted) == {bad.name}
    black = [r for r in sim.event_log() if r.kind == "liveness.blacklist"]
    assert len(black) == 1 and black[0]["node"] == bad.name
    # Nothing starts on the bad node after it was blacklisted.
    after = [r for r in sim.event_log() if r.kind == "task.start" and r.index > black[0].index]
    assert after and all(r["node"] != bad.name for r in after)
    rows = {r["node"]: r for r in attribution.report()}
    assert rows[bad.name]["successes"] == 0 and rows[bad.name]["blacklisted"]


def test_cluster_wide_failures_blacklist_nobody(ray_cluster):
    ray, cluster, _ = ray_cluster
    for _ in range(3):
        cluster.add_node(num_cpus=1)
    attribution = Attribution(min_failures=2, ratio=3.0)

    @ray.remote(max_retries=2, retry_exceptions=list(RETRYABLE))
    def flaky():
        raise ConnectionError("the database is down")

    refs = [flaky.remote() for _ in range(6)]
    for ref in refs:
        with pytest.raises(ConnectionError):
            ray.get(ref)
    assert sum(attribution.failures.values()) == 18
    assert attribution.blacklisted == {}


def test_bad_input_does_not_blacklist_the_node_that_ran_it(ray_cluster):
    ray, cluster, _ = ray_cluster
    nodes = [cluster.add_node(num_cpus=1) for _ in range(3)]
    attribution = Attribution(min_failures=3, ratio=3.0)

    @ray.remote(num_cpus=1, scheduling_strategy=NodeAffinitySchedulingStrategy(nodes[0].node_id, soft=False))
    def parse(record):
        if record.startswith("bad"):
            raise ValueError(f"malformed record {record!r}")
        return record

    for i in range(3):  # three malformed records, all on the same node: the input's fault
        with pytest.raises(ValueError):
            ray.get(parse.remote(f"bad-{i}"))
    assert ray.get(parse.remote("good")) == "good"
    assert attribution.failures[nodes[0].name] == 0
    assert attribution.errors[(nodes[0].name, "ValueError")] == 3
    assert attribution.blacklisted == {}
    assert not [r for r in sim.event_log() if r.kind == "liveness.blacklist"]


def test_a_subclass_of_a_retryable_error_implicates_the_node(ray_cluster):
    ray, cluster, _ = ray_cluster
    nodes = [cluster.add_node(num_cpus=1) for _ in range(3)]
    attribution = Attribution(min_failures=3, ratio=3.0)

    class FlakyDisk(TransientError):
        pass

    @ray.remote(
        max_retries=0, scheduling_strategy=NodeAffinitySchedulingStrategy(nodes[1].node_id, soft=False)
    )
    def read():
        raise FlakyDisk("bad sector")

    for _ in range(3):
        with pytest.raises(FlakyDisk):
            ray.get(read.remote())
    assert attribution.failures[nodes[1].name] == 3
    assert set(attribution.blacklisted) == {nodes[1].name}


def test_a_retryable_class_sharing_a_name_with_another_keeps_its_subclasses():
    from miniray.liveness.attribution import TransientError, _class_names

    class Impostor(ConnectionError):  # a retryable class elsewhere that happens to share the name
        pass

    Impostor.__name__ = "TransientError"

    class FlakyCache(TransientError):
        pass

    assert "FlakyCache" in _class_names((ConnectionError, TransientError))
