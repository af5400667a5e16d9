"""`ray.cancel` of actor calls as Ray 2.60 does it (the `actor_cancel` conformance scenario):
flagged, not interrupted, for a sync method; CancelledError at the await for an async one."""

import asyncio
import os
import time

import pytest

from miniray import exceptions as E


def test_a_running_sync_method_runs_on_and_get_raises_a_plain_cancelled_error(ray, runs):
    @ray.remote
    class Worker:
        def work(self):
            flags = []
            for _ in range(10):
                time.sleep(0.1)
                flags.append(ray.get_runtime_context().is_canceled())
            runs.mark("ran to its end")
            return flags

    actor = Worker.remote()
    ref = actor.work.remote()
    time.sleep(0.35)
    ray.cancel(ref)
    with pytest.raises(E.TaskCancelledError) as info:
        ray.get(ref)
    assert type(info.value) is E.TaskCancelledError  # not RayTaskError(TaskCancelledError)
    assert "was cancelled" in str(info.value)
    assert runs["ran to its end"] == 1


def test_a_call_waiting_at_the_actor_still_runs_in_its_turn(ray, runs):
    @ray.remote
    class Worker:
        def slow(self):
            time.sleep(1.0)
            return "slow"

        def queued(self):
            runs.mark("queued ran")
            return ray.get_runtime_context().is_canceled()

    actor = Worker.remote()
    ahead = actor.slow.remote()
    behind = actor.queued.remote()
    time.sleep(0.2)
    ray.cancel(behind)
    with pytest.raises(E.TaskCancelledError):
        ray.get(behind)
    assert ray.get(ahead) == "slow"
    assert runs["queued ran"] == 1


def test_a_call_whose_argument_is_pending_never_reaches_the_actor(ray, runs):
    @ray.remote
    def slow_arg():
        time.sleep(1.0)
        return 1

    @ray.remote
    class Worker:
        def use(self, x):
            runs.mark("used")
            return x

    actor = Worker.remote()
    ref = actor.use.remote(slow_arg.remote())
    ray.cancel(ref)
    with pytest.raises(E.TaskCancelledError):
        ray.get(ref)
    time.sleep(2.0)
    assert runs["used"] == 0


def test_an_async_method_is_cancelled_at_its_await(ray, runs):
    @ray.remote
    class Server:
        async def handle(self):
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                runs.mark("cleaned up")
                raise
            return "handled"

        async def flag(self):
            return ray.get_runtime_context().is_canceled()

    server = Server.remote()
    ref = server.handle.remote()
    time.sleep(1.0)
    ray.cancel(ref)
    with pytest.raises(E.TaskCancelledError) as info:
        ray.get(ref)
    assert isinstance(info.value, E.RayTaskError)  # Ray 2.60 wraps this one
    assert runs["cleaned up"] == 1
    with pytest.raises(RuntimeError, match="not supported in an async actor"):
        ray.get(server.flag.remote())


def test_force_is_refused_and_a_cancelled_call_is_not_retried(ray, runs):
    @ray.remote(max_restarts=1, max_task_retries=1)
    class Worker:
        def dies_later(self):
            time.sleep(1.0)
            runs.mark("attempt")
            os._exit(1)

    actor = Worker.remote()
    ref = actor.dies_later.remote()
    with pytest.raises(ValueError, match="force=True is not supported for actor tasks."):
        ray.cancel(ref, force=True)
    time.sleep(0.5)
    ray.cancel(ref)
    with pytest.raises(E.TaskCancelledError):
        ray.get(ref)
    assert runs["attempt"] == 1
