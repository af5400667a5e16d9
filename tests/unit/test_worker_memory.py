"""A worker's memory is its own (miniray/isolation), and a replay never repeats an effect.

This module is registered with `sim.copy_by_value`, so its functions are treated as a script's
(`__main__`) are: each simulated worker process gets its own copy of the state they reach, as
Ray's cloudpickle gives it. The conformance scenarios (tests/conformance/scenarios/worker_memory_*)
hold the same cases as recorded on real Ray 2.60.
"""

from __future__ import annotations

import os
import time
import warnings

import pytest
from worker_memory_support import next_run, reset

import miniray
from miniray import sim
from miniray.isolation import SharedStateWarning
from miniray.liveness import Services

sim.copy_by_value(__name__)

RESULTS: list = []
COUNT = 0
CONFIG = {"factor": 2}


@pytest.fixture(autouse=True)
def _fresh_globals():
    global COUNT
    RESULTS.clear()
    COUNT = 0
    CONFIG["factor"] = 2
    yield


def test_a_task_writing_a_global_changes_only_its_own_process(ray):
    @ray.remote
    def record(x):
        global COUNT
        RESULTS.append(x)
        COUNT += 1
        return os.getpid(), len(RESULTS), COUNT

    got = ray.get([record.remote(i) for i in range(6)])
    assert RESULTS == [] and COUNT == 0  # the driver never sees a worker's writes
    by_pid: dict = {}
    for pid, n, count in got:
        by_pid.setdefault(pid, []).append((n, count))
    assert len(by_pid) > 1  # several worker processes ran it
    for seen in by_pid.values():  # tasks on one worker process share its copy, one after another
        assert seen == [(i, i) for i in range(1, len(seen) + 1)]


def test_a_restarted_actor_starts_again_from_the_exported_state(ray):
    def make():
        calls = 0

        @ray.remote(max_restarts=1)
        class Counter:
            def incr(self):
                nonlocal calls
                calls += 1
                return calls

        return Counter, lambda: calls

    Counter, driver_calls = make()
    a = Counter.remote()
    assert ray.get([a.incr.remote() for _ in range(3)]) == [1, 2, 3]
    sim.kill_actor(a)
    sim.sleep(2.0)  # the restart
    assert ray.get(a.incr.remote()) == 1  # a new process: the closure as exported, not as left
    assert driver_calls() == 0


def test_a_driver_change_after_the_first_remote_reaches_no_worker(ray):
    @ray.remote
    def factor():
        return CONFIG["factor"]

    CONFIG["factor"] = 3  # before the first .remote(): exported with it
    assert ray.get(factor.remote()) == 3
    CONFIG["factor"] = 5  # after: Ray pickled the function and its globals already
    assert ray.get([factor.remote() for _ in range(4)]) == [3, 3, 3, 3]


def test_a_mutable_class_attribute_is_per_actor(ray):
    @ray.remote
    class Registry:
        names: list = []

        def add(self, name):
            Registry.names.append(name)
            return list(Registry.names)

    a, b = Registry.remote(), Registry.remote()
    assert ray.get(a.add.remote("x")) == ["x"]
    assert ray.get(b.add.remote("y")) == ["y"]  # b's process has its own class
    assert ray.get(a.add.remote("z")) == ["x", "z"]
    assert Registry.names == []


def test_arguments_and_gets_are_copies(ray):
    @ray.remote
    def grow(items):
        items.append("task")
        return items

    mine = ["driver"]
    ref = grow.remote(mine)
    mine.append("later")  # after .remote(): the task got what was passed then
    assert ray.get(ref) == ["driver", "task"]
    assert mine == ["driver", "later"]
    first = ray.get(ref)
    first.append("mutated")
    assert ray.get(ref) == ["driver", "task"]  # each get deserializes its own copy


def test_a_re_run_starts_from_the_attempts_state_not_the_first_runs(ray):
    @ray.remote
    def slow():
        time.sleep(1)
        return 1

    @ray.remote
    def stage():
        RESULTS.append("before the get")  # runs twice in miniray (once per run of the body)
        ray.get(slow.remote())  # blocks: the body is unwound and run again
        return list(RESULTS)

    assert ray.get(stage.remote()) == ["before the get"]  # as on Ray: once


def test_cleanup_while_unwinding_reaches_nothing(ray, capsys):
    svc = Services()

    @ray.remote
    def slow():
        time.sleep(2)
        return "done"

    @ray.remote
    def work(tmp):
        svc.blobs.put(tmp, "partial")
        try:
            return ray.get(slow.remote())
        finally:
            print("cleanup")
            svc.blobs.delete(tmp)

    assert ray.get(work.remote("tmp/a")) == "done"
    effects = [(e.op, e.key) for e in svc.effects]
    assert effects == [("put", "tmp/a"), ("delete", "tmp/a")]  # one delete, after the real return
    assert [r.fields["op"] for r in sim.event_log() if r.kind == "effect"] == ["put", "delete"]
    assert capsys.readouterr().out.count("cleanup") == 1
    run = sim.run(lambda: ray.get(work.remote("tmp/b")))
    ops = [op for op, _ in run.journals["work#1/1"]]
    assert ops == ["blob.put", "submit slow", "get", "blob.delete"]


def test_a_crash_runs_no_cleanup_that_reaches_the_cluster(ray):
    svc = Services()

    @ray.remote(max_retries=1)
    def work():
        try:
            svc.blobs.put("out", "x")
        finally:
            svc.blobs.put("cleanup", "y")
        return "ok"

    run = sim.run(lambda: miniray.get(work.remote()), faults=["crash work#1/1 step=1"])
    assert run.value == "ok"
    writes = [(r.fields["attempt"], r.fields["key"]) for r in run.records if r.kind == "effect"]
    # The first attempt crashed before its second call: its `finally` wrote nothing.
    assert writes == [("work#1/1", "out"), ("work#1/2", "out"), ("work#1/2", "cleanup")]


def test_a_re_run_that_asks_something_else_is_named_nondeterministic(ray):
    reset()  # a counter in another module: shared, and not restored for a re-run

    @ray.remote
    def fickle():
        if next_run() == 0:
            time.sleep(1)  # the first run blocks here (another task overlaps the sleep)
        else:
            ray.put("x")  # the re-run asks for a put at the sleep's position
        return "never"

    @ray.remote
    def other():
        time.sleep(0.5)
        return 0

    def scenario():
        refs = [other.remote(), fickle.remote()]
        return miniray.get(refs)

    run = sim.run(scenario)
    assert isinstance(run.error, sim.SimulationError)
    text = str(run.error)
    assert "nondeterministic" in text and "`put`" in text and "`sleep`" in text
    assert "test_worker_memory.py:" in text  # names the learner's line


def test_journal_entries_name_the_operation_and_the_learners_line(ray):
    @ray.remote
    def leaf():
        return 1

    @ray.remote
    def parent():
        ref = leaf.remote()
        return ray.get(ref)

    run = sim.run(lambda: miniray.get(parent.remote()))
    entries = run.journals["parent#1/1"]
    assert [op for op, _ in entries] == ["submit leaf", "get"]
    lines = [int(site.rsplit(":", 1)[1]) for _, site in entries]
    assert all(site.split(":")[0].endswith("test_worker_memory.py") for _, site in entries)
    assert lines[1] == lines[0] + 1


def test_writing_shared_state_from_a_task_warns_once_with_the_line(ray):
    @ray.remote
    def configure():
        os.environ["FAULT_LINES_TEST"] = "1"
        warnings.filters_mutated = True  # another module's attribute: shared by every worker
        return 0

    with pytest.warns(SharedStateWarning) as caught:
        ray.get([configure.remote() for _ in range(3)])
    messages = [str(w.message) for w in caught]
    assert any("os.environ" in m for m in messages)
    assert any("warnings.filters_mutated" in m for m in messages)
    assert len(messages) == 2  # once per line, not once per call
    assert all(w.filename.endswith("test_worker_memory.py") for w in caught)
    os.environ.pop("FAULT_LINES_TEST", None)


def test_a_task_opening_a_file_for_writing_warns_and_still_writes(ray, tmp_path):
    target = tmp_path / "out.txt"

    @ray.remote
    def save(path):
        with open(path, "w") as f:
            f.write("x")
        with open(path) as f:  # reading warns nothing
            return f.read()

    with pytest.warns(SharedStateWarning, match="for writing") as caught:
        assert ray.get(save.remote(str(target))) == "x"
    assert len(caught) == 1 and caught[0].filename.endswith("test_worker_memory.py")


def test_a_class_attribute_written_through_the_decorated_name_is_per_actor(ray):
    @ray.remote
    class Tally:
        n = 0

        def bump(self):
            Tally.n += 1  # `Tally` is the decorated class here, as in Ray
            return Tally.n

    a, b = Tally.remote(), Tally.remote()
    assert ray.get([a.bump.remote(), a.bump.remote(), b.bump.remote()]) == [1, 2, 1]
    assert Tally.n == 0
