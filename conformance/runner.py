"""Run one conformance scenario on one backend and print its observations as JSON.

    python conformance/runner.py <ray|miniray> <scenario> <workdir>

The observation dict is printed on a single line after RESULT_MARKER, because
real Ray also writes its own log lines (worker crashes, retries) to stdout.
Real Ray runs with a private temp dir per run: a plain ``ray.init()`` otherwise
attaches to whichever local cluster wrote /tmp/ray/ray_current_cluster last,
which breaks when two scenarios run side by side.
"""

import importlib
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# A plain script (no package imports): real Ray's venv runs it too, without this repo installed.
SCENARIOS = os.path.join(REPO, "tests", "conformance", "scenarios")
RESULT_MARKER = "CONFORMANCE-RESULT "  # scenario_runs reads the line this marks


def _prepare_ray_env():
    """Environment for real Ray; returns a temp dir to delete afterwards (None: the caller's)."""
    tmp = None
    if not os.environ.get("RAY_TMPDIR"):  # scenario_runs passes its own, to clean up after
        # Short path: Ray puts Unix sockets under it, and those are capped at 107 bytes.
        tmp = os.environ["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="rc", dir="/tmp")
    os.environ.pop("RAY_ADDRESS", None)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    # Worker processes unpickle scenario closures that reference _observe by
    # module name, so they must find the scenarios directory too.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (SCENARIOS, os.environ.get("PYTHONPATH", "")) if p)
    return tmp


def _without_dashboard():
    """Start every Ray node of this run without the dashboard's modules, unless asked for.

    With ray[default] installed (the state API and `ray memory` need it), a plain `ray.init()` or
    `cluster_utils.Cluster` starts the full dashboard and its agents: a scenario that never asks
    them anything took about twice as long. Every node Ray starts is built from a RayParams, so
    its default (None: "start it if installed") becomes False; a scenario that reads the state
    API, `ray memory` or the metrics agent sets NEEDS_DASHBOARD = True and keeps Ray's default.
    """
    from ray._private import parameter

    init = parameter.RayParams.__init__

    def init_without_dashboard(self, *args, **kwargs):
        if kwargs.get("include_dashboard") is None:
            kwargs["include_dashboard"] = False
        init(self, *args, **kwargs)

    parameter.RayParams.__init__ = init_without_dashboard


def load_backend(name):
    if name == "ray":
        import ray
        import ray.cluster_utils as cluster_utils
    elif name == "miniray":
        if REPO not in sys.path:
            sys.path.insert(0, REPO)
        import miniray as ray
        import miniray.cluster_utils as cluster_utils
    else:
        raise SystemExit(f"unknown backend {name!r}: use ray or miniray")
    return ray, cluster_utils


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    backend, scenario, workdir = argv[1:]
    os.makedirs(workdir, exist_ok=True)
    tmp = _prepare_ray_env() if backend == "ray" else None
    sys.path.insert(0, SCENARIOS)
    try:
        ray, cluster_utils = load_backend(backend)
        module = importlib.import_module(scenario)
        if backend == "ray" and not getattr(module, "NEEDS_DASHBOARD", False):
            _without_dashboard()
        started = time.perf_counter()
        observations = module.run(ray, cluster_utils, workdir)
        wall = time.perf_counter() - started
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    json.dumps(observations)  # fail here, not in the reader, if not serialisable
    print(
        RESULT_MARKER + json.dumps({"observations": observations, "wall_s": wall}, sort_keys=True), flush=True
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
