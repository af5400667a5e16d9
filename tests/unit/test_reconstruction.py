"""Lost objects: lineage reconstruction, its limits, and owners that die.

As Ray's own reconstruction tests do, an object is used by a task on the node that made it, so
that node holds its only copy: a `ray.get` from the driver would leave a copy on the driver's
node, and then losing the worker node loses nothing (test_a_copy_where_it_was_read_survives).
"""

import pytest

from miniray import exceptions as E

BIG = 200_000  # above the 100 KiB inline limit: stored in the node's object store, as in Ray


def worker_node(cluster):
    return cluster.add_node(num_cpus=1, resources={"w": 1})


def use_on_worker(ray, ref):
    """Read `ref` in a task on the worker node itself (its only copy stays there), as Ray's
    test_reconstruction.py does with its `dependent_task`."""

    @ray.remote(resources={"w": 0.1})
    def dependent(data):
        return len(data)

    return ray.get(dependent.remote(ref))


def test_lost_output_is_rebuilt_by_rerunning_the_producer(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1})
    def produce():
        runs.mark("produce")
        return bytes(BIG)

    ref = produce.remote()
    assert use_on_worker(ray, ref) == BIG
    cluster.remove_node(node)
    worker_node(cluster)
    assert len(ray.get(ref)) == BIG
    assert runs["produce"] == 2


def test_a_copy_where_it_was_read_survives_and_nothing_reruns(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1})
    def produce():
        runs.mark("produce")
        return bytes(BIG)

    ref = produce.remote()
    assert len(ray.get(ref)) == BIG  # the driver's get leaves a copy on the head node
    cluster.remove_node(node)
    assert len(ray.get(ref)) == BIG
    assert runs["produce"] == 1  # lost only when every copy is: no reconstruction


def test_chain_is_rebuilt_recursively(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1})
    def x():
        runs.mark("x")
        return bytes(BIG)

    @ray.remote(resources={"w": 0.1})
    def y(data):
        runs.mark("y")
        return bytes(len(data))

    ry = y.remote(x.remote())
    use_on_worker(ray, ry)
    cluster.remove_node(node)
    worker_node(cluster)
    assert len(ray.get(ry)) == BIG
    assert (runs["x"], runs["y"]) == (2, 2)


def test_retries_disabled_makes_loss_final(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1}, max_retries=0)
    def produce():
        return bytes(BIG)

    @ray.remote
    def consume(data):
        return len(data)

    ref = produce.remote()
    use_on_worker(ray, ref)
    cluster.remove_node(node)
    worker_node(cluster)
    with pytest.raises(E.ObjectReconstructionFailedError) as info:
        ray.get(ref)
    assert "OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED" in str(info.value)
    with pytest.raises(E.ObjectReconstructionFailedError) as info:
        ray.get(consume.remote(ref))
    assert type(info.value).__name__ == "RayTaskError(ObjectReconstructionFailedError)"


def test_second_loss_exceeds_max_attempts(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1}, max_retries=1)
    def produce():
        return bytes(BIG)

    ref = produce.remote()
    use_on_worker(ray, ref)
    cluster.remove_node(node)
    node = worker_node(cluster)
    use_on_worker(ray, ref)  # rebuilt on the new node, and used there
    cluster.remove_node(node)
    worker_node(cluster)
    with pytest.raises(E.ObjectReconstructionFailedError) as info:
        ray.get(ref)
    assert "OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED" in str(info.value)


def test_small_outputs_live_with_the_owner_and_survive_node_loss(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1})
    def small():
        runs.mark("small")
        return 42

    ref = small.remote()
    ray.get(ref)
    cluster.remove_node(node)
    assert ray.get(ref) == 42
    assert runs["small"] == 1


def test_put_inside_a_task_dies_with_its_owner(ray_cluster):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1})
    def make():
        return [ray.put(b"payload")]

    [inner] = ray.get(make.remote())
    assert ray.get(inner) == b"payload"
    cluster.remove_node(node)
    with pytest.raises(E.OwnerDiedError):
        ray.get(inner)


def test_put_object_lost_is_not_reconstructable(ray):
    from miniray import sim

    ref = ray.put(bytes(BIG))
    sim.lose_object(ref)
    with pytest.raises(E.ObjectReconstructionFailedError) as info:
        ray.get(ref)
    assert "OBJECT_UNRECONSTRUCTABLE_PUT" in str(info.value)


@pytest.mark.parametrize("restarts,retries,rebuilt", [(1, 1, True), (0, 0, False), (1, 0, False)])
def test_actor_task_output_rebuilt_only_if_actor_restarts_and_method_retries(
    ray_cluster, restarts, retries, rebuilt
):
    ray, cluster, runs = ray_cluster
    node = worker_node(cluster)

    @ray.remote(resources={"w": 0.1}, num_cpus=0, max_restarts=restarts, max_task_retries=retries)
    class Holder:
        def make(self):
            runs.mark("make")
            return bytes(BIG)

    h = Holder.remote()
    ref = h.make.remote()
    use_on_worker(ray, ref)
    cluster.remove_node(node)
    worker_node(cluster)
    if rebuilt:
        assert len(ray.get(ref)) == BIG
        assert runs["make"] == 2
    else:
        with pytest.raises(E.ObjectLostError):
            ray.get(ref)
