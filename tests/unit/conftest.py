"""Each test gets a fresh simulated cluster; a failing test prints the seed that replays it."""

import pytest

import miniray
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.copying import shared
from miniray.session import SESSION, InitOptions


@pytest.fixture
def ray():
    sim.set_seed(0)
    miniray.init(num_cpus=4)
    yield miniray
    miniray.shutdown()


def _cluster(system_config=None):
    """Ray's reconstruction-test layout: a head with no CPUs, worker nodes added by the test."""
    sim.set_seed(0)
    head = {"num_cpus": 0}
    if system_config:
        head["_system_config"] = system_config
    c = Cluster(initialize_head=True, head_node_args=head)
    miniray.init(address=c.address)
    yield c
    miniray.shutdown()
    c.shutdown()


LIVENESS = {"liveness": {"probe_interval_s": 5, "unhealthy_threshold": 3}}


@pytest.fixture
def cluster():
    yield from _cluster()


@pytest.fixture
def live_cluster():
    """The same layout with the failure detector on: probes every 5 s, DEAD after 3 misses."""
    yield from _cluster(LIVENESS)


@pytest.fixture
def runs():
    """Counts body executions by label, across every simulated worker process.

    A test-only tool: on Ray a body's writes stay in its worker process, and miniray copies a
    remote function's state per process too (miniray/isolation), so the counter is declared a
    handle (`copying.shared`), which every process shares, like an object ref."""
    counts: dict = {}

    @shared
    class Runs:
        def mark(self, label="body"):
            counts[label] = counts.get(label, 0) + 1

        def __getitem__(self, label):
            return counts.get(label, 0)

    return Runs()


def pytest_runtest_logreport(report):
    if report.failed and report.when == "call":
        report.sections.append(("miniray replay", "seed=0 (tests set it with miniray.sim.set_seed)"))


@pytest.fixture
def ray_cluster(cluster, runs):
    return miniray, cluster, runs


@pytest.fixture(autouse=True)
def _fresh_session():
    # Each test starts from miniray's defaults, whatever ran before it: a lesson or exercise test
    # that scheduled faults or set a seed without sim.run must not reach the next test's runtime.
    miniray.shutdown()
    SESSION.pending = InitOptions()
    yield
