"""Process identity and exits: pids, signals to a worker's pid, sys.exit and exit_actor.

Ray's own examples make workers fail with `os.kill(pid, signal.SIGKILL)` on a pid a body
returned from `os.getpid()`, and with `sys.exit()` inside an actor method (the actor
checkpointing example). miniray gives each simulated worker its own pid and turns those into
the simulated worker's death; this scenario records what real Ray does with each.
"""

import os
import signal
import sys

from _actors import dead, watch_states
from _observe import RunLog, describe_error, get_or_error, outcome, wait_until

# Real Ray needs minutes for this one (restarts, timeouts, cancellations): checked against the
# recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=4)
    try:
        return {
            "pids": _pids(ray),
            "signals": _signals(ray, workdir),
            "actor_sys_exit": {
                "code_0": _actor_exit(ray, 0),
                "code_1": _actor_exit(ray, 1),
                "no_code": _actor_exit(ray, None),
            },
            "task_sys_exit": {
                "code_0": _task_exit(ray, workdir, 0),
                "code_1": _task_exit(ray, workdir, 1),
            },
            "exit_actor": _exit_actor(ray),
            "ray_terminate": _terminate(ray),
        }
    finally:
        ray.shutdown()


def _pids(ray):
    @ray.remote
    def task_pid():
        return os.getpid()

    @ray.remote
    class Holder:
        def pid(self):
            return os.getpid()

    a, b = Holder.remote(), Holder.remote()
    pa1, pa2, pb = ray.get([a.pid.remote(), a.pid.remote(), b.pid.remote()])
    tp = ray.get(task_pid.remote())
    me = os.getpid()
    return {
        "task_pid_is_not_driver": tp != me,
        "actor_pid_stable": pa1 == pa2,
        "two_actors_two_pids": pa1 != pb,
        "actor_pid_is_not_driver": pa1 != me,
        "ready": ray.get(a.__ray_ready__.remote()),
    }


def _signals(ray, workdir):
    @ray.remote(max_restarts=1)
    class Victim:
        def pid(self):
            return os.getpid()

    @ray.remote(max_retries=1)
    def kills_itself(log):
        if log.bump() == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return "second attempt"

    out = {}
    for name, sig in (("sigkill", signal.SIGKILL), ("sigterm", signal.SIGTERM)):
        victim = Victim.remote()
        pid = ray.get(victim.pid.remote())
        os.kill(pid, sig)
        states = watch_states(ray, victim, lambda seen: len(seen) >= 2 and seen[-1] in ("ALIVE", "DEAD"))
        wait_until(ray, lambda v=victim: get_or_error(ray, v.pid.remote())[1] is None)
        value, _ = get_or_error(ray, victim.pid.remote())
        new_pid = value
        # Ray notices the death a moment later (the first sample may still say ALIVE); miniray at once.
        out[name] = {
            "restarted": "RESTARTING" in states,
            "final_state": states[-1],
            "restarted_with_new_pid": new_pid is not None and new_pid != pid,
        }
    log = RunLog(workdir, "kills_itself")
    out["task_kills_itself"] = {"result": outcome(ray, kills_itself.remote(log)), "runs": log.count()}
    return out


def _actor_exit(ray, code):
    @ray.remote(max_restarts=1)
    class Exiter:
        def leave(self, code):
            if code is None:
                sys.exit()
            sys.exit(code)

        def ping(self):
            return "pong"

    actor = Exiter.remote()
    ray.get(actor.ping.remote())
    _, error = get_or_error(ray, actor.leave.remote(code))
    states = watch_states(
        ray, actor, lambda seen: seen[-1] == "DEAD" or (len(seen) >= 2 and seen[-1] == "ALIVE")
    )
    after = outcome(ray, actor.ping.remote(), timeout=30)
    return {
        "call": describe_error(ray, error),
        "states": states,
        "after": after,
        "_message": str(error),
    }


def _task_exit(ray, workdir, code):
    log = RunLog(workdir, f"task_exit_{code}")

    @ray.remote(max_retries=1)
    def leaves(log, code):
        log.bump()
        sys.exit(code)

    return {"result": outcome(ray, leaves.remote(log, code)), "runs": log.count()}


def _exit_actor(ray):
    @ray.remote(max_restarts=1)
    class Quitter:
        def quit(self):
            ray.actor.exit_actor()

        def ping(self):
            return "pong"

    actor = Quitter.remote()
    ray.get(actor.ping.remote())
    _, error = get_or_error(ray, actor.quit.remote())
    states = watch_states(ray, actor, dead, limit_s=10)
    return {
        "call": describe_error(ray, error),
        "states": states,
        "after": outcome(ray, actor.ping.remote(), timeout=30),
        "_message": str(error),
    }


def _terminate(ray):
    @ray.remote(max_restarts=1)
    class Plain:
        def ping(self):
            return "pong"

    actor = Plain.remote()
    first = ray.get(actor.ping.remote())
    terminated = outcome(ray, actor.__ray_terminate__.remote())
    states = watch_states(ray, actor, dead, limit_s=10)
    return {
        "first": first,
        "terminate_call": terminated,
        "states": states,
        "after": outcome(ray, actor.ping.remote()),
    }
