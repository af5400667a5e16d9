"""`hash()` of a string differs between worker processes (issue 29): each Ray worker is a fresh
interpreter with its own hash salt, so two tasks running side by side, the driver, and an attempt
and its retry after a crash (in a new worker) disagree; within one process it is stable, and a
str hashes as its bytes do. Pids and hash values themselves are never compared, only whether
they agree.
"""

import os
import time

from _observe import RunLog

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False

TEXT = "order-7"


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        return _hashes(ray, RunLog(workdir, "attempts"))
    finally:
        ray.shutdown()


def _hashes(ray, attempts):
    @ray.remote
    def side_by_side(seconds):
        time.sleep(seconds)  # both run at once, so in two worker processes
        return os.getpid(), hash(TEXT), hash(TEXT.encode()), hash(TEXT)

    @ray.remote(max_retries=1)
    def crashes_once(log):
        key = hash(TEXT)
        if log.bump() == 1:
            with open(log.path + ".first", "w") as f:
                f.write(repr((os.getpid(), key)))
            os._exit(1)
        return os.getpid(), key

    (pid_a, a, a_bytes, a_again), (pid_b, b, _, _) = ray.get(
        [side_by_side.remote(1.0), side_by_side.remote(1.0)]
    )
    retry_pid, retry_key = ray.get(crashes_once.remote(attempts))
    with open(attempts.path + ".first") as f:
        first_pid, first_key = (int(x) for x in f.read().strip("()").split(","))
    return {
        "two_workers": pid_a != pid_b,
        "two_workers_agree": a == b,
        "the_driver_agrees": hash(TEXT) == a,
        "one_worker_agrees_with_itself": a == a_again,
        "str_hashes_as_its_bytes": a == a_bytes,
        "retry_in_a_new_worker": first_pid != retry_pid,
        "retry_agrees": first_key == retry_key,
        "attempts": attempts.count(),
    }
