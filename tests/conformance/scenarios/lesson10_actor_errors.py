"""Lesson 10's probe stands on Ray's two actor errors; here they are in Ray's own words.

An actor with `max_restarts=1` (and no task retries) loses its process twice. The call that
killed it the first time raises `ActorUnavailableError` (it may come back: it is restarting);
the one that killed it the second time raises `ActorDiedError` (gone for good).

Observed and compared: the two error classes and that both are `RayActorError`s. Shown, not
compared: both messages as each backend prints them.
"""

from _actors import back_alive, make_tally, watch_states
from _observe import RunLog, get_or_error
from _said import error as said_error

# Over 30 s on real Ray: checked against its recording in `make test`, live in `make conformance-live`.
LIVE_ON_RAY = False


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        Tally = make_tally(ray)
        actor = Tally.options(max_restarts=1, max_task_retries=0).remote(RunLog(workdir, "init"))
        ray.get(actor.incr.remote())
        _, first = get_or_error(ray, actor.crash.remote())
        watch_states(ray, actor, back_alive)
        ray.get(actor.incr.remote())  # restarted: it answers again
        _, second = get_or_error(ray, actor.crash.remote())
        out = {}
        for name, exc in (("first_death", first), ("second_death", second)):
            out[name] = {
                "error": None if exc is None else type(exc).__name__,
                "is_a_ray_actor_error": isinstance(exc, ray.exceptions.RayActorError),
                "_said_error": "" if exc is None else said_error(exc),
            }
        return out
    finally:
        ray.shutdown()
