"""A task's worker process dies mid-body: how often does the body run, and what does get raise?

Rows of issue 2: default options -> 4 runs then WorkerCrashedError; max_retries=0 / 2
-> 1 / 3 runs; consecutive attempts about 1 s apart. The body kills its own worker
with os._exit(1), the one fault both backends model the same way.
"""

import os

from _observe import RunLog, about_one_second_apart, gaps, outcome


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        observations = {}
        for label, options in (
            ("default", {}),
            ("max_retries_0", {"max_retries": 0}),
            ("max_retries_2", {"max_retries": 2}),
        ):
            log = RunLog(workdir, label)

            @ray.remote
            def crash_worker():
                log.bump()  # noqa: B023 (runs within this iteration, before log is rebound)
                os._exit(1)

            remote_fn = crash_worker.options(**options) if options else crash_worker
            result = outcome(ray, remote_fn.remote())
            observations[label] = {"runs": log.count(), "result": result}
            if label == "default":
                observations[label]["attempts_about_1s_apart"] = about_one_second_apart(log.times())
                observations[label]["_gaps_s"] = gaps(log.times())
        return observations
    finally:
        ray.shutdown()
