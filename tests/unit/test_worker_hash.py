"""`hash()` of str and bytes in code copied into a simulated worker is salted per process, as each
Ray worker's interpreter salts its own (miniray/isolation/hashing.py); the driver keeps the
interpreter's own."""

import builtins
import os

import miniray
from miniray import sim
from miniray.copying import shared
from miniray.isolation import process_salt, salted_hash


def _hashes(ray, n_tasks, text="order-7"):
    @ray.remote
    def where_and_hash(s):
        return os.getpid(), hash(s)

    return ray.get([where_and_hash.remote(text) for _ in range(n_tasks)])


def test_two_workers_disagree_and_one_worker_agrees_with_itself(ray):
    seen = dict(_hashes(ray, 8))  # 4 CPUs: several workers, each running several tasks
    assert len(set(seen.values())) == len(seen) > 1
    assert all(v != builtins.hash("order-7") for v in seen.values())
    again = dict(_hashes(ray, 8))
    assert {pid: again[pid] for pid in seen if pid in again} == {
        pid: seen[pid] for pid in again if pid in seen
    }


def test_the_driver_keeps_the_interpreters_own(ray):
    _hashes(ray, 2)
    assert hash("order-7") == builtins.hash("order-7")
    assert "hash" not in globals()  # the salted one is bound only while a body runs


def test_a_retry_in_a_new_worker_hashes_differently(ray):
    keys = []

    @shared  # a test's notebook, shared by every process (see conftest's `runs`)
    class Notes:
        def note(self, pid, key):
            keys.append((pid, key))
            return len(keys)

    notes = Notes()

    @ray.remote(max_retries=1)
    def charge(order):
        if notes.note(os.getpid(), hash(f"order-{order}")) == 1:
            os._exit(1)  # the worker dies after the charge: Ray retries in a new worker

    ray.get(charge.remote(7))
    (pid1, key1), (pid2, key2) = keys
    assert pid1 != pid2 and key1 != key2


def test_the_salt_comes_from_the_seed_and_the_pid():
    def run(seed):
        sim.set_seed(seed)
        miniray.init(num_cpus=2)
        out = sorted(_hashes(miniray, 2))
        miniray.shutdown()
        return out

    assert run(1) == run(1)
    assert run(1) != run(2)
    pid, value = run(1)[0]
    assert value == salted_hash(process_salt(1, pid))("order-7")


def test_what_a_salted_hash_keeps_of_pythons():
    h = salted_hash(12345)
    assert h("") == 0 and h(b"") == 0
    assert h("abc") == h(b"abc")  # as in any interpreter: the same bytes hash alike
    assert h("é") == h("é") != h("e")
    assert h(("a", 1)) != h(("b", 1)) and h(("a", 1)) == h(("a", 1))
    assert h(1234) == builtins.hash(1234)  # ints are not salted, in Python or here
    assert h(("a",)) != salted_hash(54321)(("a",))
    assert all(-(2**63) <= h(s) < 2**63 and h(s) != -1 for s in ("x", "y", "z" * 100, "\U0001f600"))


def test_a_module_that_binds_its_own_hash_keeps_it(ray):
    def hash(value):  # noqa: A001 - the learner's own function called hash
        return 42

    @ray.remote
    def uses_its_own():
        return hash("order-7")

    assert ray.get(uses_its_own.remote()) == 42
