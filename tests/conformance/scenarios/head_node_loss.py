"""Losing the head node while a job runs (Ray 2.60 without GCS fault tolerance).

Two ways to lose it, as a test can:
* `Cluster.remove_node(cluster.head_node)` while the driver is connected to the head: Ray's
  cluster_utils refuses, after shutting the driver down.
* The head's GCS process dies (`cluster.head_node.kill_gcs_server()`): what keeps working (a
  running task, calls to a live actor, a new task that finds an idle worker), what never
  starts (a task that needs a new worker process, a new actor), and how the driver ends: after `gcs_rpc_server_reconnect_timeout_s` its process exits with status 1.
  Because that exit ends the driver's process, the second part runs as a child driver: on real
  Ray in a subprocess, on miniray in this process (miniray raises SystemExit where Ray's process
  exits). The child writes what it saw to a file after every step, so what it saw before it died
  survives it.
"""

import json
import os
import sys
import time

from _observe import describe_error, get_or_error, is_miniray

# Real Ray needs two cluster starts and the reconnect timeout: checked against the recording
# (record.py) in `make test`, not live.
LIVE_ON_RAY = False

RECONNECT_TIMEOUT_S = 30  # long enough for the child's checks on a loaded 2-core machine
CHILD_LIMIT_S = 150  # the subprocess is killed after this: a hang is a finding, not a stuck suite


def run(ray, cluster_utils, workdir):
    return {
        "remove_head_node": _remove_head(ray, cluster_utils),
        "gcs_killed": _gcs_killed(ray, cluster_utils, workdir),
    }


def _remove_head(ray, cluster_utils):
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    try:
        ray.init(address=cluster.address)
        cluster.add_node(num_cpus=1)
        try:
            cluster.remove_node(cluster.head_node, allow_graceful=False)
            error = None
        except Exception as exc:  # noqa: BLE001 - the refusal is the observation
            error = exc
        return {
            "error": None if error is None else type(error).__name__,
            "refused_because_driver_connected": error is not None
            and str(error).startswith("Removing a node that is connected to this Ray client is not allowed"),
            "driver_still_initialized": ray.is_initialized(),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def _gcs_killed(ray, cluster_utils, workdir):
    path = os.path.join(workdir, "gcs_child.json")
    if is_miniray(ray):
        try:
            gcs_child(ray, cluster_utils, path)
            code, message = 0, ""
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
            message = str(exit_.code)
        finally:
            ray.shutdown()
    else:
        code, message = _run_child_on_ray(path)
    with open(path) as f:
        seen = json.load(f)
    return {
        **seen,
        "driver_exit_status": code,
        "exit_says_gcs_unreachable": f"Failed to connect to GCS within {RECONNECT_TIMEOUT_S} seconds"
        in message,
        "exit_says_program_terminates": "The program will terminate." in message,
    }


def _run_child_on_ray(path):
    import subprocess

    here = os.path.dirname(os.path.abspath(__file__))
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import ray, ray.cluster_utils as cu; "
        f"import head_node_loss as m; m.gcs_child(ray, cu, {path!r})"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=CHILD_LIMIT_S, check=False
    )
    return proc.returncode, proc.stdout + proc.stderr


def gcs_child(ray, cluster_utils, path):
    """The child driver: kill the GCS mid-job, record what still works, then wait on a new actor."""
    seen = {}

    def note(key, value):
        seen[key] = value
        with open(path, "w") as f:
            json.dump(seen, f)

    cluster = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "_system_config": {"gcs_rpc_server_reconnect_timeout_s": RECONNECT_TIMEOUT_S},
        },
    )
    ray.init(address=cluster.address)
    cluster.add_node(num_cpus=2, resources={"worker": 2})

    @ray.remote(num_cpus=1, resources={"worker": 1})
    def slow(seconds):
        time.sleep(seconds)
        return "done"

    @ray.remote(num_cpus=0, resources={"worker": 0.1})
    class Pinger:
        def ping(self):
            return "pong"

    pinger = Pinger.remote()
    note("actor_before", ray.get(pinger.ping.remote(), timeout=60))
    # One task first, so the worker node has exactly one idle task worker when the GCS dies.
    note("warm_task_before", ray.get(slow.remote(0), timeout=60))
    running = slow.remote(2)
    time.sleep(0.5)
    cluster.head_node.kill_gcs_server()
    note("running_task_after", _value_or_error(ray, running, 10))
    note("actor_call_after", _value_or_error(ray, pinger.ping.remote(), 5))
    note("new_task_after", _value_or_error(ray, slow.remote(0), 5))
    # While the one worker is busy, a second task needs a new worker process, and a new worker
    # registers with the GCS before it runs anything.
    busy = slow.remote(8)
    note("task_needing_new_worker_after", _value_or_error(ray, slow.remote(0), 5))
    note("new_actor_after", _value_or_error(ray, Pinger.remote().ping.remote(), 3))
    note("driver_initialized_after", ray.is_initialized())
    del busy
    # Nothing can create this actor: the driver waits here until it gives up on the GCS.
    ray.get(Pinger.remote().ping.remote())
    note("never_reached", True)


def _value_or_error(ray, ref, timeout):
    value, exc = get_or_error(ray, ref, timeout)
    return {"error": describe_error(ray, exc)} if exc is not None else {"value": value}
