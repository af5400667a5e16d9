"""A hung actor method (issue 29's gray failure, miniray's stall_actor): what Ray 2.60 shows for an
actor whose call never returns. The process stays alive, so the actor stays ALIVE and nothing
fails: `ray.get(timeout=)` raises `GetTimeoutError`, the calls after it wait in the actor's queue,
and only killing the process ends them. With a restart left, `ray.kill(actor, no_restart=False)`
brings up a process that answers again.

The hang is a method that sleeps far longer than the scenario runs (on miniray, virtual seconds);
tests/unit/test_actor_stall.py shows the stall_actor fault giving miniray's runs the same
observations.
"""

import time

from _observe import actor_state, outcome, pass_time, wait_until

HANG_S = 3600  # never returns while anyone watches


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        return _stall(ray)
    finally:
        ray.shutdown()


def _stall(ray):
    @ray.remote(max_restarts=1, max_task_retries=0)
    class Service:
        def ready(self):
            return True

        def handle(self, seconds):
            time.sleep(seconds)
            return "handled"

        def ping(self):
            return "pong"

    service = Service.remote()
    ray.get(service.ready.remote())
    hung = service.handle.remote(HANG_S)
    pass_time(ray, 0.5)  # it runs now
    out = {"hung_call": outcome(ray, hung, timeout=1.0)}
    later = service.ping.remote()
    out["later_call"] = outcome(ray, later, timeout=1.0)
    ready, _ = ray.wait([hung, later], timeout=0.5)
    out["ready_after_wait"] = len(ready)
    out["state_while_hung"] = actor_state(ray, service)
    ray.kill(service, no_restart=False)  # the only way out: end the process
    out["hung_call_after_kill"] = outcome(ray, hung)
    out["later_call_after_kill"] = outcome(ray, later)
    out["restarted"] = wait_until(ray, lambda: actor_state(ray, service) == "ALIVE")
    out["answers_after_restart"] = outcome(ray, service.ping.remote(), timeout=30)
    return out
