"""An actor's process dies, an actor method raises, an actor is killed.

Rows of issue 2: actor process dies with default options -> the dying call, the
calls queued behind it and later calls raise ActorDiedError; state ALIVE -> DEAD.
An actor method raising ValueError -> RayTaskError(ValueError); the actor stays
ALIVE and keeps its state. Also ray.kill with and without restart.
"""

from _actors import collapse, dead, make_tally, watch_states
from _observe import RunLog, actor_state, outcome, wait_until


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
    alive = actor_state(ray, actor)  # sampled before the crash: it may be over before watching starts
    dying = actor.crash.remote()
    queued = [actor.incr.remote() for _ in range(2)]
    states = collapse([alive] + watch_states(ray, actor, dead))
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
    # ray.kill returns before the process is gone: wait for the new instance's
    # __init__ so the next call cannot reach the old one.
    restarted = wait_until(ray, lambda: init_log.count() == 2)
    after_restart = outcome(ray, actor.incr.remote())  # 1: a fresh instance
    ray.kill(actor)  # no_restart=True by default
    # Asynchronous on real Ray: a call sent at once can still run on the old
    # instance (seen: it returned 2). Wait for DEAD, then call.
    final_state = watch_states(ray, actor, dead)[-1]
    after_final_kill = outcome(ray, actor.incr.remote())
    return {
        "first_call": first,
        "restarted_after_kill": restarted,
        "call_after_kill_with_restart": after_restart,
        "call_after_kill_no_restart": after_final_kill,
        "final_state": final_state,
        "init_runs": init_log.count(),
    }
