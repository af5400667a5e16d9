"""A body's read of an outside service's data is a journaled call (miniray/outside.py): a body
run again from its start (after a frozen node, a blocked get) gets the answer it had, as Ray's
frozen process keeps what it read, so a check made before a freeze is stale after it."""

import time

import miniray as ray
from miniray import liveness, sim
from miniray.cluster_utils import Cluster


@sim.external
class Ledger:
    def __init__(self):
        self.lines = []

    def append(self, line):
        self.lines.append(line)  # its own state: not a journaled read, and not a copy


def _two_workers():
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)
    cluster.connect()


def _publish(ledger):
    @ray.remote(max_retries=2)
    def publish():
        if not ledger.lines:  # the check
            time.sleep(1.0)
            ledger.append("published")  # the act
        return len(ledger.lines)

    return publish


def test_a_frozen_check_wakes_with_its_old_answer_and_writes_again():
    def scenario():
        _two_workers()
        liveness.enable(probe_interval_s=5.0, unhealthy_threshold=3)
        ledger = Ledger()
        ray.get(_publish(ledger).remote())
        sim.sleep(60)  # the frozen attempt wakes at 40 s
        return list(ledger.lines)

    # Frozen before its sleep (call 1): presumed dead at 15 s, run again elsewhere, then it wakes.
    run = sim.run(scenario, faults=["pause_node publish#1/1 step=1 duration=40"])
    assert run.error is None and run.value == ["published", "published"]
    first = [op for op, _site in run.journals["publish#1/1"]]
    assert first[:2] == ["read Ledger.lines", "sleep"]


def test_reads_outside_a_body_and_a_services_own_reads_are_plain():
    def scenario():
        _two_workers()
        ledger = Ledger()
        ray.get(_publish(ledger).remote())
        return ledger.lines, ray.get(_publish(ledger).remote())

    run = sim.run(scenario)
    lines, second = run.value
    assert lines == ["published"] and second == 1  # the append reached the ledger itself
