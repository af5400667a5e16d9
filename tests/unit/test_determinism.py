"""Same seed, same code, same faults: the same event log, byte for byte; budgets end runs."""

import os
import time

import miniray
from miniray import sim
from miniray.faults import Fault, random_schedule


def workload():
    ray = miniray
    from miniray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    nodes = [cluster.add_node(num_cpus=2) for _ in range(3)]
    ray.init(address=cluster.address)

    @ray.remote(max_retries=-1)
    def step(i, data=None):
        time.sleep(1 + i % 3)
        return bytes(150_000) if i % 2 else i

    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class Acc:
        def __init__(self):
            self.total = 0

        def add(self, x):
            time.sleep(0.5)
            self.total += 1
            return self.total

    acc = Acc.remote()
    refs = [step.remote(i) for i in range(12)]
    outs = [acc.add.remote(r) for r in refs[:6]]
    sim.kill_node(nodes[1], at=2.5)
    sim.pause_node(nodes[2], 4.0, at=1.0)
    result = [len(v) if isinstance(v, bytes) else v for v in ray.get(refs)] + ray.get(outs)
    cluster.shutdown()
    return result


def test_same_seed_same_log_byte_for_byte():
    a = sim.run(workload, seed=11)
    b = sim.run(workload, seed=11)
    assert a.error is None, a.token()
    assert a.log_text == b.log_text and a.value == b.value
    assert len(a.log_text) > 1000 and "node.died" in a.log_text


def test_different_seed_changes_ids_not_outcome():
    a = sim.run(workload, seed=1)
    b = sim.run(workload, seed=2)
    assert a.value == b.value
    assert a.log_text != b.log_text


def test_random_fault_schedule_is_a_function_of_its_seed():
    nodes = ["node:1", "node:2", "node:3"]
    assert random_schedule(5, nodes, 10.0, count=3) == random_schedule(5, nodes, 10.0, count=3)
    assert random_schedule(5, nodes, 10.0, count=3) != random_schedule(6, nodes, 10.0, count=3)


def test_no_wall_clock_or_global_random_state_is_read():
    import random

    state = random.getstate()
    a = sim.run(workload, seed=3)
    assert random.getstate() == state
    time.sleep(0)  # the real sleep, outside any runtime
    assert sim.run(workload, seed=3).log_text == a.log_text


def test_event_budget_stops_a_retry_forever_loop():
    def scenario():
        miniray.init(num_cpus=1)

        @miniray.remote(max_retries=-1)
        def always_dies():
            os._exit(1)

        return miniray.get(always_dies.remote())

    run = sim.run(scenario, max_events=500)
    assert isinstance(run.error, sim.BudgetExceeded)
    assert "event budget exhausted" in str(run.error) and "max_retries=-1" in str(run.error)


def test_stall_names_the_infeasible_wait():
    def scenario():
        miniray.init(num_cpus=1)

        @miniray.remote(num_cpus=4)
        def big():
            return 1

        return miniray.get(big.remote())

    run = sim.run(scenario)
    assert isinstance(run.error, sim.Stalled)
    message = str(run.error)
    assert "nothing can make progress" in message and "big needs {'CPU': 4.0}" in message


def test_choice_points_enumerate_and_replay_each_crash():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote(max_retries=0)
        def two_steps():
            time.sleep(1)
            time.sleep(1)
            return "done"

        return miniray.get(two_steps.remote())

    clean = sim.run(scenario)
    assert clean.value == "done"
    crashes = clean.points.crashes()
    assert [f.token() for f in crashes] == [
        "crash two_steps#1/1 step=0",
        "crash two_steps#1/1 step=1",
        "crash two_steps#1/1 step=2",
    ]
    outcomes = [type(sim.run(scenario, faults=[f]).error).__name__ for f in crashes]
    assert outcomes == ["WorkerCrashedError"] * 3
    # the crash lands at the chosen point: after k sleeps of one virtual second each
    times = [sim.run(scenario, faults=[f]).virtual_time for f in crashes]
    assert times == [0.0, 1.0, 2.0]


def test_fault_tokens_round_trip():
    f = Fault("pause_node", "node:2", at=3.5, duration=2.0)
    assert sim.parse_token(f.token()) == f


def test_line_budget_stops_a_body_that_never_ends():
    def scenario():
        miniray.init(num_cpus=1)

        @miniray.remote
        def spin():
            n = 0
            while True:
                n += 1

        return miniray.get(spin.remote())

    run = sim.run(scenario, max_body_lines=10_000)
    assert isinstance(run.error, sim.BudgetExceeded)
    assert "spin#1/1 ran more than 10000 lines" in str(run.error)


def test_line_budget_counts_replays_and_leaves_normal_bodies_alone():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote
        def naps(k):
            total = 0
            for i in range(k):
                time.sleep(1)
                total += i
            return total

        return miniray.get([naps.remote(5), naps.remote(3)])

    assert sim.run(scenario, max_body_lines=1_000).value == [10, 3]


def test_actor_state_is_restored_before_a_replay():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote
        class Acc:
            def __init__(self):
                self.items = []

            def add_then_wait(self, x, refs):
                self.items.append(x)  # mutated before blocking: must not be doubled by the replay
                miniray.get(refs[0])
                return list(self.items)

        @miniray.remote
        def later():
            time.sleep(3)
            return 1

        acc = Acc.remote()
        return miniray.get(acc.add_then_wait.remote("a", [later.remote()]))

    assert sim.run(scenario).value == ["a"]
