"""A restartable actor's process dies: what happens to the dying call and queued calls?

Rows of issue 2: max_restarts=1, max_task_retries=0 -> dying and queued calls raise
ActorUnavailableError, __init__ runs again, state is reset, ALIVE -> RESTARTING ->
ALIVE, and a second death -> ActorDiedError. max_restarts=1 with max_task_retries=1
or -1 -> the dying call and queued calls are retried after the restart and succeed.
"""

from _actors import back_alive, collapse, dead, make_tally, watch_states
from _observe import RunLog, actor_state, outcome

# Re-creation is slowed so RESTARTING lasts long enough to be sampled on real Ray.
RESTART_DELAY_S = 2.0


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        Tally = make_tally(ray)
        observations = {"no_task_retries": _no_task_retries(ray, Tally, workdir)}
        for retries in (1, -1):
            label = f"max_task_retries_{retries}".replace("-", "minus")
            observations[label] = _with_task_retries(ray, Tally, workdir, label, retries)
        return observations
    finally:
        ray.shutdown()


def _no_task_retries(ray, Tally, workdir):
    init_log = RunLog(workdir, "no_retries_init")
    actor = Tally.options(max_restarts=1, max_task_retries=0).remote(init_log, RESTART_DELAY_S)
    before = [outcome(ray, actor.incr.remote()) for _ in range(2)]
    alive = actor_state(ray, actor)  # sampled before the crash: it may be over before watching starts
    dying = actor.crash.remote()
    queued = [actor.incr.remote() for _ in range(2)]
    states = collapse([alive] + watch_states(ray, actor, back_alive))
    dying_result = outcome(ray, dying)
    queued_results = [outcome(ray, r) for r in queued]
    after_restart = outcome(ray, actor.incr.remote())  # 1: state was reset
    second_death = outcome(ray, actor.crash.remote())
    later = outcome(ray, actor.incr.remote())
    states = collapse(states + watch_states(ray, actor, dead))
    return {
        "calls_before": before,
        "dying_call": dying_result,
        "queued_calls": queued_results,
        "call_after_restart": after_restart,
        "second_dying_call": second_death,
        "call_after_second_death": later,
        "init_runs": init_log.count(),
        "states": states,
    }


def _with_task_retries(ray, Tally, workdir, label, retries):
    init_log = RunLog(workdir, label + "_init")
    crash_log = RunLog(workdir, label + "_crash")
    actor = Tally.options(max_restarts=1, max_task_retries=retries).remote(init_log)
    before = [outcome(ray, actor.incr.remote()) for _ in range(2)]
    dying = actor.crash_first_time.remote(crash_log)
    queued = [actor.incr.remote() for _ in range(2)]
    queued_results = [outcome(ray, r) for r in queued]
    return {
        "calls_before": before,
        "dying_call": outcome(ray, dying),
        # Counted from a fresh state: values 1 and 2. Real Ray does not keep the
        # submission order when it re-sends them (seen: [2, 1] with -1), so sort.
        "queued_calls_sorted": sorted(queued_results, key=repr),
        "_queued_calls_in_order": queued_results,
        "dying_method_runs": crash_log.count(),
        "init_runs": init_log.count(),
        "final_state": actor_state(ray, actor),
    }
