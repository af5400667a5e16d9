"""The driver API and misuse errors that name the fix."""

import time

import pytest

from miniray import sim


def test_put_get_wait_and_num_returns(ray):
    @ray.remote(num_returns=2)
    def pair():
        return 1, 2

    a, b = pair.remote()
    assert ray.get([a, b]) == [1, 2]
    ref = ray.put({"k": [1, 2]})
    assert ray.get(ref) == {"k": [1, 2]}

    @ray.remote
    def slow(t):
        time.sleep(t)
        return t

    refs = [slow.remote(t) for t in (3, 1, 2)]
    ready, not_ready = ray.wait(refs, num_returns=1)
    assert ready == [refs[1]] and len(not_ready) == 2 and sim.now() == 1
    ready, not_ready = ray.wait(refs, num_returns=3, timeout=0.5)
    assert len(ready) == 1
    ready, _ = ray.wait(refs, num_returns=3)
    assert len(ready) == 3 and sim.now() == 3


def test_nested_tasks_and_get_inside_a_task(ray):
    @ray.remote
    def leaf(i):
        time.sleep(1)
        return i * i

    @ray.remote
    def parent(n):
        return sum(ray.get([leaf.remote(i) for i in range(n)]))

    assert ray.get(parent.remote(4)) == 0 + 1 + 4 + 9


def test_values_are_copied(ray):
    data = [1, 2]
    ref = ray.put(data)
    data.append(3)
    assert ray.get(ref) == [1, 2]


def test_parallel_sleeps_overlap_in_virtual_time(ray):
    @ray.remote
    def nap(t):
        start = time.time()
        time.sleep(t)
        return time.time() - start

    assert ray.get([nap.remote(3), nap.remote(1), nap.remote(2)]) == [3, 1, 2]
    assert sim.now() == 3


def test_resources(ray):
    assert ray.cluster_resources()["CPU"] == 4
    assert ray.available_resources()["CPU"] == 4
    assert len(ray.nodes()) == 1 and ray.nodes()[0]["Alive"]


def test_calling_a_remote_function_directly(ray):
    @ray.remote
    def f():
        return 1

    with pytest.raises(TypeError, match=r"try '.*f\.remote\(\)'"):
        f()


def test_get_on_a_non_ref(ray):
    with pytest.raises(TypeError, match="not an ObjectRef"):
        ray.get(5)


def test_unknown_option(ray):
    with pytest.raises(ValueError, match="Invalid option keyword max_retry for remote functions"):

        @ray.remote(max_retry=2)
        def f():
            return 1


def test_negative_resource(ray):
    with pytest.raises(ValueError, match="num_cpus"):

        @ray.remote(num_cpus=-1)
        def f():
            return 1

    with pytest.raises(ValueError, match="non-negative"):

        @ray.remote(resources={"gpu_slot": -2})
        def g():
            return 1


def test_actor_misuse(ray):
    @ray.remote
    class A:
        def m(self):
            return 1

    with pytest.raises(TypeError, match="A.remote()"):
        A()
    a = A.remote()
    with pytest.raises(TypeError, match=r"m\.remote\(\)"):
        a.m()
    with pytest.raises(AttributeError, match="no method named 'nope'"):
        _ = a.nope


def test_init_twice(ray):
    with pytest.raises(RuntimeError, match="ignore_reinit_error"):
        ray.init()
    ray.init(ignore_reinit_error=True)


def test_worker_prints_are_prefixed(ray, capsys):
    @ray.remote
    def hello():
        print("hi from a worker")
        time.sleep(1)
        print("and again")
        return 1

    ray.get([hello.remote(), hello.remote()])
    out = capsys.readouterr().out
    assert out.count("hi from a worker") == 2 and out.count("and again") == 2
    assert "(hello pid=" in out


def test_cluster_addresses_are_never_reused_after_a_shutdown():
    import miniray
    from miniray.cluster_utils import Cluster

    first = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    second = Cluster(initialize_head=True, head_node_args={"num_cpus": 2})
    first.shutdown()
    third = Cluster(initialize_head=True, head_node_args={"num_cpus": 3})
    try:
        assert len({first.address, second.address, third.address}) == 3
        miniray.init(address=second.address)
        assert miniray.cluster_resources()["CPU"] == 2.0
        miniray.shutdown()
        miniray.init(address=third.address)
        assert miniray.cluster_resources()["CPU"] == 3.0
        miniray.shutdown()
        with pytest.raises(ConnectionError, match="No miniray cluster at address"):
            miniray.init(address=first.address)
    finally:
        miniray.shutdown()
        second.shutdown()
        third.shutdown()
