"""Lesson 2's story on both backends: a quotes API resets the first connections, and the task
was given `max_retries=3`, expecting Ray to ride out the outage.

The lesson's API is down for its first 2.5 virtual seconds; real Ray's attempts start when a
worker is free, so here the outage is counted in connections instead: the first two are reset.
Observed: with `retry_exceptions` left at its default, one attempt and `RayTaskError` that is
also a `ConnectionResetError`, whatever `max_retries` says; with
`retry_exceptions=[ConnectionResetError]`, three attempts about a second apart, then the quote.
Shown, not compared: the error as each backend prints it, and what the driver is told of each
retry (real Ray's raylet prints a line per retry; miniray's event log has one).
"""

import time

from _observe import RunLog, about_one_second_apart, describe_error, gaps, get_or_error, is_miniray
from _said import DriverLog, driver_lines, log_length, miniray_log
from _said import error as said_error

RESETS = 2  # connections the API resets before it comes back


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        with DriverLog() as log:
            return _quotes(ray, workdir, log)
    finally:
        ray.shutdown()


def _quotes(ray, workdir, log):
    observations = {}
    for label, retry in (("default", False), ("retry_listed", [ConnectionResetError])):
        connections = RunLog(workdir, label)

        @ray.remote(max_retries=3, retry_exceptions=retry)
        def quote(item):
            time.sleep(0.5)  # the request
            if connections.bump() <= RESETS:  # noqa: B023 (runs within this iteration)
                raise ConnectionResetError("quotes API: connection reset by peer")
            return {"item": item, "price": 42}

        start = log_length(ray)
        value, exc = get_or_error(ray, quote.remote("A-17"))
        result = {"value": value} if exc is None else {"error": describe_error(ray, exc)}
        error = result.get("error") or {}
        observations[label] = {
            "attempts": connections.count(),
            "result": result,
            "error_is_a_connection_reset_error": "ConnectionError" in error.get("isa", [])
            and error.get("cause") == "ConnectionResetError",
        }
        if label == "default":
            observations[label]["_said_error"] = said_error(exc) if exc is not None else ""
        if label == "retry_listed":
            observations[label]["attempts_about_1s_apart"] = about_one_second_apart(connections.times())
            observations[label]["_gaps_s"] = gaps(connections.times())
            observations[label]["_said_retries"] = (
                miniray_log("task.error", after=start)
                if is_miniray(ray)
                else driver_lines(ray, log, "retries remaining")
            )
    return observations
