"""Behaviours of Ray's own tests, rewritten for miniray. Each test names the Ray test it mirrors.

These are not copies: Ray's tests need real processes and real time; these check the same
observable behaviour on the simulated cluster.
"""

import os

import pytest

import miniray
from miniray import exceptions as E
from miniray import sim
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

BIG = 200_000


def test_failed_task(ray):
    """Mirrors python/ray/tests/test_failure.py::test_failed_task."""

    @ray.remote
    def throw():
        raise Exception("Test function intentionally failed.")

    with pytest.raises(Exception, match="intentionally failed") as info:
        ray.get(throw.remote())
    assert isinstance(info.value, E.RayTaskError)

    class CustomError(Exception):
        pass

    @ray.remote
    def throw_custom():
        raise CustomError("custom")

    with pytest.raises(CustomError):
        ray.get(throw_custom.remote())


def test_worker_dying(ray):
    """Mirrors test_failure.py::test_worker_dying: a worker that exits gives WorkerCrashedError."""

    @ray.remote(max_retries=0)
    def f():
        os._exit(1)

    with pytest.raises(E.WorkerCrashedError, match="died unexpectedly"):
        ray.get(f.remote())


def test_get_with_timeout(ray):
    """Mirrors test_basic_2.py::test_get_with_timeout: timeouts are virtual seconds."""
    import time

    @ray.remote
    def slow():
        time.sleep(100)
        return "late"

    ref = slow.remote()
    start = sim.now()
    with pytest.raises(E.GetTimeoutError):
        ray.get(ref, timeout=5)
    assert sim.now() - start == 5
    assert ray.get(ref) == "late"
    assert sim.now() == 100


def test_actor_restart(ray):
    """Mirrors test_actor_failures.py::test_actor_restart: restarts reset state; then death."""

    @ray.remote(max_restarts=1, max_task_retries=0)
    class RestartableActor:
        def __init__(self):
            self.value = 0

        def increase(self, exit=False):
            if exit:
                os._exit(-1)
            self.value += 1
            return self.value

    actor = RestartableActor.remote()
    assert ray.get([actor.increase.remote() for _ in range(3)]) == [1, 2, 3]
    with pytest.raises(E.RayActorError):
        ray.get(actor.increase.remote(exit=True))
    assert ray.get(actor.increase.remote()) == 1
    with pytest.raises(E.ActorDiedError):
        ray.get(actor.increase.remote(exit=True))
    with pytest.raises(E.ActorDiedError):
        ray.get(actor.increase.remote())


def test_actor_restart_with_retry(ray, runs):
    """Mirrors test_actor_failures.py::test_actor_restart_with_retry: calls survive the crash."""

    @ray.remote(max_restarts=1, max_task_retries=-1)
    class RestartableActor:
        def __init__(self):
            self.value = 0

        def increase(self, delay=0):
            runs.mark()
            if runs["body"] == 2:
                os._exit(-1)
            self.value += 1
            return self.value

    actor = RestartableActor.remote()
    refs = [actor.increase.remote() for _ in range(3)]
    assert ray.get(refs) == [1, 1, 2]


def test_multiple_actor_restart(ray):
    """Mirrors test_actor_failures.py::test_multiple_actor_restart: each restart resets state."""

    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class Actor:
        def __init__(self):
            self.calls = 0

        def work(self, crash):
            self.calls += 1
            if crash:
                os._exit(1)
            return self.calls

    actors = [Actor.remote() for _ in range(4)]
    for _ in range(3):
        for a in actors:
            sim.kill_actor(a)
            assert ray.get(a.work.remote(False)) == 1


def test_actor_restart_on_node_failure(ray_cluster):
    """Mirrors test_actor_failures.py::test_actor_restart_on_node_failure."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1)

    @ray.remote(max_restarts=1, max_task_retries=-1)
    class RestartableActor:
        def __init__(self):
            runs.mark("init")
            self.value = 0

        def increase(self):
            self.value += 1
            return self.value

    cluster.add_node(num_cpus=1)
    actor = RestartableActor.options(
        scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=True)
    ).remote()
    assert ray.get(actor.increase.remote()) == 1
    cluster.remove_node(node)
    assert ray.get(actor.increase.remote()) == 1
    assert runs["init"] == 2


def test_basic_reconstruction(ray_cluster):
    """Mirrors test_reconstruction.py::test_basic_reconstruction (reconstruction enabled)."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 1})

    @ray.remote(max_retries=1, resources={"node1": 1})
    def large_object():
        runs.mark("large")
        return bytes(BIG)

    @ray.remote
    def dependent_task(x):
        return len(x)

    obj = large_object.remote()
    assert ray.get(dependent_task.remote(obj)) == BIG
    cluster.remove_node(node, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 1})
    assert ray.get(dependent_task.remote(obj)) == BIG
    assert runs["large"] == 2


def test_reconstruction_cached_dependency(ray_cluster):
    """Mirrors test_reconstruction.py::test_reconstruction_cached_dependency: a dependency whose
    copy survived is reused, only the lost object's task re-runs."""
    ray, cluster, runs = ray_cluster
    node1 = cluster.add_node(num_cpus=1, resources={"node1": 1})
    cluster.add_node(num_cpus=1, resources={"node2": 1})

    @ray.remote(max_retries=1, resources={"node2": 1})
    def large_object():
        runs.mark("large")
        return bytes(BIG)

    @ray.remote(max_retries=1, resources={"node1": 1})
    def chain(x):
        runs.mark("chain")
        return x

    @ray.remote
    def dependent_task(x):
        return len(x)

    obj = chain.remote(large_object.remote())
    assert ray.get(dependent_task.remote(obj)) == BIG
    cluster.remove_node(node1, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 1})
    assert ray.get(dependent_task.remote(obj)) == BIG
    assert (runs["large"], runs["chain"]) == (1, 2)


def test_basic_reconstruction_actor_task(ray_cluster):
    """Mirrors test_reconstruction.py::test_basic_reconstruction_actor_task."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 2})
    cluster.add_node(num_cpus=1, resources={"node2": 1})

    @ray.remote(max_restarts=-1, max_task_retries=-1, resources={"node1": 1}, num_cpus=0)
    class Actor:
        def large_object(self):
            runs.mark("large")
            return bytes(BIG)

    @ray.remote
    def dependent_task(x):
        return len(x)

    a = Actor.remote()
    obj = a.large_object.remote()
    assert ray.get(dependent_task.remote(obj)) == BIG
    cluster.remove_node(node, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 2})
    assert ray.get(dependent_task.remote(obj)) == BIG
    assert runs["large"] == 2


def test_multiple_downstream_tasks(ray_cluster):
    """Mirrors test_reconstruction.py::test_multiple_downstream_tasks: one rebuild serves many."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 1})

    @ray.remote(resources={"node1": 1})
    def large_object():
        runs.mark("large")
        return bytes(BIG)

    @ray.remote
    def dependent_task(x):
        return len(x)

    obj = large_object.remote()
    ray.get(dependent_task.options(resources={"node1": 1}).remote(obj))  # used where it was made
    cluster.remove_node(node, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 1})
    assert ray.get([dependent_task.remote(obj) for _ in range(3)]) == [BIG] * 3
    assert runs["large"] == 2


def test_cached_object(ray_cluster):
    """Mirrors test_reconstruction.py::test_cached_object: a copy pulled to another node by a
    task that read it survives the loss of the node that made the object; nothing re-runs."""
    ray, cluster, runs = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 1})
    cluster.add_node(num_cpus=1, resources={"node2": 1})

    @ray.remote
    def large_object():
        runs.mark("large")
        return bytes(BIG)

    @ray.remote
    def dependent_task(x):
        return len(x)

    obj = large_object.options(resources={"node1": 1}).remote()
    ray.get(dependent_task.options(resources={"node2": 1}).remote(obj))
    cluster.remove_node(node, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 1})
    assert ray.get(dependent_task.remote(obj)) == BIG
    assert runs["large"] == 1


def test_reconstruction_retries_exhausted(ray_cluster):
    """Mirrors test_reconstruction.py::test_basic_reconstruction with reconstruction disabled
    (max_retries=0): the loss is final and named."""
    ray, cluster, _ = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 1})

    @ray.remote(max_retries=0, resources={"node1": 1})
    def large_object():
        return bytes(BIG)

    @ray.remote
    def dependent_task(x):
        return len(x)

    obj = large_object.remote()
    ray.get(dependent_task.options(resources={"node1": 1}).remote(obj))  # used where it was made
    cluster.remove_node(node, allow_graceful=False)
    cluster.add_node(num_cpus=1, resources={"node1": 1})
    with pytest.raises(E.ObjectLostError):
        ray.get(obj)


def test_owner_died(ray_cluster):
    """Mirrors test_reconstruction.py / test_failure_2.py owner-death cases: a borrowed ref whose
    owner (the worker that created it) died raises OwnerDiedError."""
    ray, cluster, _ = ray_cluster
    node = cluster.add_node(num_cpus=1, resources={"node1": 1})

    @ray.remote(resources={"node1": 1})
    class Owner:
        def make(self):
            return [ray.put(bytes(BIG))]

    owner = Owner.remote()
    [inner] = ray.get(owner.make.remote())
    cluster.remove_node(node, allow_graceful=False)
    with pytest.raises(E.OwnerDiedError):
        ray.get(inner)


def test_node_affinity_hard_to_dead_node(ray_cluster):
    """Mirrors test_scheduling_2.py::test_node_affinity_scheduling_strategy (hard, dead node)."""
    ray, cluster, _ = ray_cluster
    node = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)

    @ray.remote
    def where():
        return "ran"

    cluster.remove_node(node)
    with pytest.raises(E.TaskUnschedulableError):
        ray.get(
            where.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False)
            ).remote()
        )
    assert (
        ray.get(
            where.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=True)
            ).remote()
        )
        == "ran"
    )


def test_actor_restart_doc_example(ray):
    """The behaviour of Ray's doc_code/actor_restart.py: with max_restarts=4 and
    max_task_retries=-1 a counter that exits on its 11th call counts 1..10 in each of its five
    lives (the crashing call is retried on the new life), then calls raise RayActorError."""

    @ray.remote(max_restarts=4, max_task_retries=-1)
    class Actor:
        def __init__(self):
            self.counter = 0

        def increment_and_possibly_fail(self):
            if self.counter == 10:
                os._exit(0)
            self.counter += 1
            return self.counter

    actor = Actor.remote()
    seen = []
    for _ in range(55):
        try:
            seen.append(ray.get(actor.increment_and_possibly_fail.remote()))
        except miniray.exceptions.RayActorError:
            seen.append("FAILURE")
    assert seen[:40] == list(range(1, 11)) * 4
    assert seen[40:50] == list(range(1, 11))
    assert seen[50:] == ["FAILURE"] * 5
