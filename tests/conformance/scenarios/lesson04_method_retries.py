"""Lesson 4's `max_task_retries` and a method that raises, on both backends.

An actor with `max_task_retries=2` has a method that always raises `ValueError`. By default the
method runs once: `max_task_retries` covers calls lost to the actor's death, not exceptions. With
`retry_exceptions=True` on the method (`@ray.method`), Ray retries the exception too, from the
same budget: the method runs three times, then the caller gets `RayTaskError(ValueError)`. The
actor keeps its state throughout (no restart).

Observed and compared: runs of each method, the error class, the actor's count afterwards. Shown,
not compared: the final error, and what the driver is told of each retry.
"""

from _observe import RunLog, get_or_error, is_miniray
from _said import DriverLog, driver_lines, log_length, miniray_log
from _said import error as said_error


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        with DriverLog() as log:
            return _calls(ray, workdir, log)
    finally:
        ray.shutdown()


def _calls(ray, workdir, log):
    plain, retried = RunLog(workdir, "plain"), RunLog(workdir, "retried")

    @ray.remote(max_task_retries=2)
    class Feed:
        def __init__(self):
            self.calls = 0

        def fetch(self):
            self.calls += 1
            plain.bump()
            raise ValueError("feed returned a malformed page")

        @ray.method(retry_exceptions=True)
        def fetch_retried(self):
            self.calls += 1
            retried.bump()
            raise ValueError("feed returned a malformed page")

        def count(self):
            return self.calls

    feed = Feed.remote()
    _, plain_exc = get_or_error(ray, feed.fetch.remote())
    start = log_length(ray)
    _, retried_exc = get_or_error(ray, feed.fetch_retried.remote())
    return {
        "default": {"runs": plain.count(), "error": type(plain_exc).__name__ if plain_exc else None},
        "retry_exceptions_true": {
            "runs": retried.count(),
            "error": type(retried_exc).__name__ if retried_exc else None,
            "_said_error": said_error(retried_exc) if retried_exc else "",
            "_said_retries": (
                miniray_log("task.error", after=start)
                if is_miniray(ray)
                else driver_lines(ray, log, "retries remaining")
            ),
        },
        "calls_counted_by_the_actor": ray.get(feed.count.remote()),
    }
