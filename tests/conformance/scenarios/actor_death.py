"""An actor's process dies, an actor method raises, an actor is killed.

Rows of issue 2: actor process dies with default options -> the dying call, the
calls queued behind it and later calls raise ActorDiedError; state ALIVE -> DEAD.
An actor method raising ValueError -> RayTaskError(ValueError); the actor stays
ALIVE and keeps its state. Also ray.kill with and without restart.
"""

from _actors import dead, make_tally, wait_until_state, watch_states
from _observe import actor_state, outcome, pass_time, RunLog


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        Tally = make_tally(ray)
        return {
            "process_dies_defaults": _process_dies(ray, Tally, workdir),
            "method_raises": _method_raises(ray, Tally, workdir),
            "kill": _kill(ray, Tally, workdir),
        }
    finally:
        ray.shutdown()


def _process_dies(ray, Tally, workdir):
    init_log = RunLog(workdir, "defaults_init")
    actor = Tally.remote(init_log)
    first = outcome(ray, actor.incr.remote())
    dying = actor.crash.remote()
    queued = [actor.incr.remote() for _ in range(2)]
    states = watch_states(ray, actor, dead)
    dying_result = outcome(ray, dying)
    queued_results = [outcome(ray, r) for r in queued]
    later_result = outcome(ray, actor.incr.remote())
    return {
        "first_call": first,
        "dying_call": dying_result,
        "queued_calls": queued_results,
        "later_call": later_result,
        "init_runs": init_log.count(),
        "states": states,
    }


def _method_raises(ray, Tally, workdir):
    init_log = RunLog(workdir, "raises_init")
    actor = Tally.remote(init_log)
    first = outcome(ray, actor.incr.remote())
    failed = outcome(ray, actor.fail.remote())
    return {
        "first_call": first,
        "failing_call": failed,
        "state_after": actor_state(ray, actor),
        "next_call": outcome(ray, actor.incr.remote()),  # 2: state survived the error
        "init_runs": init_log.count(),
    }


def _kill(ray, Tally, workdir):
    init_log = RunLog(workdir, "kill_init")
    # max_task_retries=-1 so the call after the kill waits for the restart instead
    # of racing it; the restart itself is what this case observes.
    actor = Tally.options(max_restarts=1, max_task_retries=-1).remote(init_log)
    first = outcome(ray, actor.incr.remote())
    ray.kill(actor, no_restart=False)
    pass_time(ray, 0.5)  # let the kill land before the next call is sent
    after_restart = outcome(ray, actor.incr.remote())  # 1: a fresh instance
    ray.kill(actor)  # no_restart=True by default
    after_final_kill = outcome(ray, actor.incr.remote())
    return {
        "first_call": first,
        "call_after_kill_with_restart": after_restart,
        "call_after_kill_no_restart": after_final_kill,
        "final_state": wait_until_state(ray, actor, "DEAD"),
        "init_runs": init_log.count(),
    }
