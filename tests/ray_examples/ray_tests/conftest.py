"""Ray's pytest fixtures for Ray's own test files copied here, on miniray or on real Ray.

The copies say `import miniray as ray`. By default they run on miniray (that is what `make test`
collects). With RAY_EXAMPLES_BACKEND=ray, under the Ray venv's python, the same files run on
real Ray 2.60: `miniray` imports are answered with `ray` (as run_example.py does), which is how
`tests/ray_examples/record.py` records Ray's outcome for every test.

The fixtures do what Ray's python/ray/tests/conftest.py fixtures of the same names do for these
files: start a cluster (or not) before the test and shut everything down after it.
"""

from __future__ import annotations

import os
import sys

import pytest

BACKEND = os.environ.get("RAY_EXAMPLES_BACKEND", "miniray")
if BACKEND == "ray":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from run_example import _MinirayIsRay

    sys.meta_path.insert(0, _MinirayIsRay())

import miniray as ray  # noqa: E402 - after the import hook, on real Ray this is ray


def _fresh() -> None:
    if BACKEND == "miniray":
        from miniray import sim

        sim.set_seed(0)  # a failing test replays exactly


@pytest.fixture
def shutdown_only():
    """The test starts Ray itself (or lets the first remote call start it); shut down after."""
    _fresh()
    yield None
    ray.shutdown()


@pytest.fixture
def ray_start_regular(request):
    """A one-node cluster; `request.param` may carry ray.init keyword arguments, as in Ray."""
    _fresh()
    kwargs = dict(getattr(request, "param", {}) or {})
    kwargs.setdefault("num_cpus", 1)
    yield ray.init(**kwargs)
    ray.shutdown()


@pytest.fixture
def ray_start_cluster(request):
    """A `cluster_utils.Cluster` with no nodes yet; the test adds them and connects."""
    import miniray.cluster_utils as cluster_utils

    _fresh()
    cluster = cluster_utils.Cluster()
    yield cluster
    ray.shutdown()
    cluster.shutdown()
