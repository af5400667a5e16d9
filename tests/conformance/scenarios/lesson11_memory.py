"""Lesson 11's leak, in Ray's own words: `ray memory` for a driver that holds the refs of the
blocks it put, first with Ray's defaults, then with `RAY_record_ref_creation_sites=1`.

Ray records where a ref was created only when that variable is set before the cluster starts;
without it, the Call Site column of `ray memory` (and `call_site` in `ray.util.state.
list_objects()`) reads "disabled", so grouping rows by call site finds nothing to group.

Observed and compared: two driver-owned LOCAL_REFERENCE rows in `list_objects()`, both runs.
Shown, not compared: the `ray memory` report and the call site as each backend gives them
(miniray always records call sites; its `ray memory` is `miniray.util.state.memory()`).
"""

import os

from _observe import is_miniray
from _said import normalise

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False

# Reads the state API, `ray memory` or the metrics agent: conformance/runner.py keeps Ray's dashboard.
NEEDS_DASHBOARD = True

BLOCK = 1 << 20
SITES = "RAY_record_ref_creation_sites"


def run(ray, cluster_utils, workdir):
    out = {}
    for label, sites in (("default", False), ("call_sites", True)):
        if sites:
            os.environ[SITES] = "1"  # read when the cluster starts, as `RAY_...=1 ray start` would
        ray.init(num_cpus=1)
        try:
            kept = [ray.put(b"x" * BLOCK) for _ in range(2)]  # the driver holds both refs
            rows = _list_objects(ray)
            out[label] = {
                "driver_local_refs": sum(
                    1 for r in rows if r["type"] == "DRIVER" and r["reference_type"] == "LOCAL_REFERENCE"
                ),
                "_said_call_site": normalise(str(rows[0]["call_site"])) if rows else "",
                "_said_memory": _memory_report(ray),
            }
            del kept
        finally:
            ray.shutdown()
            os.environ.pop(SITES, None)
    return out


def _state(ray):
    return __import__(ray.__name__ + ".util.state", fromlist=["list_objects"])


def _list_objects(ray):
    if is_miniray(ray):
        return _state(ray).list_objects(detail=True)
    # This cluster's address: other engineers' clusters may run on the same machine.
    return _state(ray).list_objects(address=ray.get_runtime_context().gcs_address, detail=True)


def _memory_report(ray):
    """What `ray memory` prints: on Ray its own report, on miniray `util.state.memory()`."""
    if is_miniray(ray):
        return normalise(str(_state(ray).memory()))
    from ray._private.internal_api import memory_summary

    return normalise(memory_summary(ray.get_runtime_context().gcs_address, stats_only=False))
