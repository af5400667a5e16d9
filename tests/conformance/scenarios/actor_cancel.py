"""`ray.cancel` of actor calls (issue 29): a running sync method that checks
`ray.get_runtime_context().is_canceled()`, one that never checks, a call still queued behind
another, `force=True`, a finished call, and an async method cancelled at its `await`.

A sync actor method is not interrupted: Ray only sets the flag, the method runs on, and its
result is replaced by the cancellation. A call already waiting at the actor behind another runs
too when its turn comes (Ray 2.60 sets its flag; it does not drop it). Not here: a call cancelled
at once, before it reached the actor: it ran in one of two runs on Ray 2.60 (a race). The bodies note what they saw in files, after their last
blocking call (see RunLog).
"""

import asyncio
import time

from _observe import RunLog, error_text, outcome

STEP_S = 0.1

# Real Ray needs about 30 s for this one (two actors, calls of a few seconds each): checked against
# the recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False


def words(ray, ref):
    """What a cancellation's message says: Ray's "Task: TaskID(...) was cancelled.", nothing, or else."""
    text = error_text(ray, ref)
    return "names the task" if "was cancelled" in text else ("empty" if not text else "other")


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        return {**_sync(ray, workdir), "async": _async(ray, workdir)}
    finally:
        ray.shutdown()


def _sync(ray, workdir):
    saw_flag = RunLog(workdir, "saw_flag")
    ran_out = RunLog(workdir, "ran_out")
    queued_runs = RunLog(workdir, "queued_runs")

    @ray.remote
    class Counter:
        def ready(self):
            return True

        def watch(self, seconds):
            """Checks the flag between short sleeps, as Ray's docs advise."""
            context = ray.get_runtime_context()
            for _ in range(int(seconds / STEP_S)):
                time.sleep(STEP_S)
                if context.is_canceled():
                    saw_flag.bump()
                    return "stopped early"
            return "finished"

        def ignore(self, seconds):
            """Never checks: runs to its end."""
            for _ in range(int(seconds / STEP_S)):
                time.sleep(STEP_S)
            ran_out.bump()
            return "finished"

        def queued(self):
            queued_runs.bump()
            return "ran"

        def ping(self):
            return "pong"

    actor = Counter.remote()
    ray.get(actor.ready.remote())
    out = {}

    running = actor.watch.remote(10)
    time.sleep(1.0)  # running now
    ray.cancel(running)
    out["running_checks_flag"] = outcome(ray, running)
    out["running_checks_flag_text"] = words(ray, running)
    out["running_checks_flag_saw_it"] = saw_flag.count()

    ignoring = actor.ignore.remote(2)
    time.sleep(0.5)
    ray.cancel(ignoring)
    out["running_ignores_flag"] = outcome(ray, ignoring)
    out["running_ignores_flag_ran_to_its_end"] = ran_out.count()

    ahead = actor.ignore.remote(2)
    behind = actor.queued.remote()
    time.sleep(0.5)  # `ahead` runs, `behind` waits in the actor's queue
    ray.cancel(behind)
    out["queued"] = outcome(ray, behind)
    out["queued_text"] = words(ray, behind)
    out["call_ahead_of_it"] = outcome(ray, ahead)
    time.sleep(0.5)
    out["queued_call_ran"] = queued_runs.count()

    forced = actor.ignore.remote(1)
    try:
        ray.cancel(forced, force=True)
        out["force"] = None
    except Exception as e:  # noqa: BLE001 - the class and text are the observation
        out["force"] = [type(e).__name__, str(e)]
    out["force_call_itself"] = outcome(ray, forced)

    done = actor.ping.remote()
    out["finished_first"] = outcome(ray, done)
    ray.cancel(done)
    out["finished_then_cancelled"] = outcome(ray, done)
    out["actor_still_answers"] = outcome(ray, actor.ping.remote())
    return out


def _async(ray, workdir):
    cleaned_up = RunLog(workdir, "async_cleanup")

    @ray.remote
    class Server:
        async def ready(self):
            return True

        async def handle(self, seconds):
            try:
                await asyncio.sleep(seconds)
            except asyncio.CancelledError:
                cleaned_up.bump()
                raise
            return "handled"

        async def flag(self):
            try:
                return ray.get_runtime_context().is_canceled()
            except Exception as e:  # noqa: BLE001 - the class and text are the observation
                return [type(e).__name__, str(e)]

        async def ping(self):
            return "pong"

    server = Server.remote()
    ray.get(server.ready.remote())
    call = server.handle.remote(10)
    time.sleep(1.0)  # awaiting its sleep now
    ray.cancel(call)
    return {
        "running": outcome(ray, call),
        "running_text": words(ray, call),
        "saw_cancelled_error": cleaned_up.count(),
        "is_canceled_in_async_method": outcome(ray, server.flag.remote()),
        "actor_still_answers": outcome(ray, server.ping.remote()),
    }
