"""The metrics lessons 2 and 11 name, as Ray 2.60 exports them to Prometheus.

A small job (tasks, one of them retried, an actor, a few blocks in the store) runs while the
node's metrics agent exports; the scenario reads the agent's endpoint until `ray_tasks` appears
and keeps the HELP and TYPE lines of the metrics the lessons name, and the `ray_tasks` samples.
The TYPE line says whether a metric is a counter (use `rate()`) or a gauge (read its value).

Observed and compared: that the job ran. Shown, not compared: Ray's exported lines; on miniray,
the names of its own sampled series (`miniray.sim.metrics()`), which are miniray's, not Ray's.
"""

import time

from _observe import RunLog, is_miniray, wait_until
from _said import normalise

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False

# Reads the state API, `ray memory` or the metrics agent: conformance/runner.py keeps Ray's dashboard.
NEEDS_DASHBOARD = True

NAMES = (
    "ray_tasks",
    "ray_actors",
    "ray_object_store_memory",
    "ray_object_store_used_memory",
    "ray_spill_manager_objects_bytes",
    "ray_spill_manager_request_total",
)


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1, _system_config={"metrics_report_interval_ms": 1000})
    try:
        signals = _miniray_sampler(ray)
        flaky = RunLog(workdir, "flaky")

        @ray.remote(max_retries=1, retry_exceptions=True)
        def job(i):
            if i == 0 and flaky.bump() == 1:
                raise ConnectionError("first try fails")
            time.sleep(0.1)
            return i

        @ray.remote
        class Keeper:
            def ping(self):
                return "pong"

        kept = [ray.put(b"x" * (1 << 20)) for _ in range(3)]
        done = ray.get([job.remote(i) for i in range(3)])
        keeper = Keeper.remote()
        ray.get(keeper.ping.remote())
        said = ", ".join(name for name, _ in signals.names()) if signals else _exported(ray)
        del kept
        return {"job_values": done, "_said_metrics": said}
    finally:
        ray.shutdown()


def _miniray_sampler(ray):
    if not is_miniray(ray):
        return None
    from miniray import sim

    return sim.metrics()


def _exported(ray):
    """The HELP/TYPE lines of NAMES and the ray_tasks samples, once the agent exports them."""
    import urllib.request  # real Ray only (the Pyodide runs of the scenarios take the miniray branch)

    port = ray._private.worker.global_worker.node.metrics_export_port
    text = {"now": ""}

    def scraped():
        try:
            text["now"] = (
                urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
            )
        except OSError:
            return False
        return "\nray_tasks{" in text["now"] and "\nray_actors{" in text["now"]

    wait_until(ray, scraped, step_s=1.0, limit_s=90)
    keep = []
    for line in text["now"].splitlines():
        words = line.split()
        if line.startswith("#") and len(words) > 2 and words[2] in NAMES:
            keep.append(line)
        elif line.startswith("ray_tasks{"):
            keep.append(line)
    return normalise("\n".join(keep))
