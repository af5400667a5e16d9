"""`ray.get_runtime_context()`: who and where the code calling it runs, as Ray reports it.

In the driver there is no task and no actor; inside a task or actor method the ids are the
simulated worker's, node's, task's and actor's (deterministic, in Ray's hex shapes).
"""

from __future__ import annotations

from . import context
from .aio import is_async_method
from .remote_function import ActorHandle

JOB_ID = "01000000"  # Ray numbers jobs from 1; a simulated cluster runs one job


class RuntimeContext:
    """A view of the caller: every getter reads the simulation at the moment it is called."""

    def _here(self):
        rt = context.runtime()
        body = rt._current[-1] if rt._current else None
        return rt, body

    def get_job_id(self) -> str:
        return JOB_ID

    def get_node_id(self) -> str:
        rt, body = self._here()
        worker = body.worker if body is not None else rt.driver
        return worker.node.node_id

    def get_worker_id(self) -> str:
        rt, body = self._here()
        worker = body.worker if body is not None else rt.driver
        return worker.worker_id

    def get_task_id(self) -> str | None:
        _, body = self._here()
        spec = _spec(body)
        return None if spec is None else spec.task_id

    def get_actor_id(self) -> str | None:
        _, body = self._here()
        actor = None if body is None else body.worker.actor
        return None if actor is None else actor.actor_id

    def get_actor_name(self) -> str | None:
        _, body = self._here()
        actor = None if body is None else body.worker.actor
        return None if actor is None else actor.name

    def get_assigned_resources(self) -> dict[str, float]:
        _, body = self._here()
        if body is None:  # Ray 2.60 asserts it is in a worker (recorded in runtime_context)
            raise AssertionError(
                "This method is only available when the process is a worker. Current mode: 0"
            )
        actor = body.worker.actor
        if actor is not None:
            return dict(actor.held)
        spec = _spec(body)
        return {} if spec is None else dict(spec.resources)

    @property
    def was_current_actor_reconstructed(self) -> bool:
        _, body = self._here()
        actor = None if body is None else body.worker.actor
        return actor is not None and actor.num_restarts > 0

    @property
    def current_actor(self):
        _, body = self._here()
        actor = None if body is None else body.worker.actor
        if actor is None:
            raise RuntimeError("This method is only available in an actor.")
        return ActorHandle(actor)

    def is_canceled(self) -> bool:
        rt, body = self._here()
        spec = _spec(body)
        if spec is not None and spec.kind == "actor_task" and is_async_method(spec.the_actor().cls, spec.fn):
            # Ray 2.60's words: an async method is cancelled at its await (asyncio.CancelledError).
            raise RuntimeError("This method is not supported in an async actor.")
        # Journaled: a body replayed after it blocked reads the flag it read the first time.
        return context.interact(rt, lambda: spec is not None and spec.cancelled, "is_canceled")

    @property
    def namespace(self) -> str:
        return "default"

    def get(self) -> dict:
        return {
            "job_id": self.get_job_id(),
            "node_id": self.get_node_id(),
            "task_id": self.get_task_id(),
            "actor_id": self.get_actor_id(),
        }


def _spec(body):
    """The TaskSpec whose attempt `body` runs (a task or an actor method), or None."""
    if body is None:
        return None
    worker = body.worker
    if worker.actor is not None:
        return worker.actor.running
    return worker.task


def get_runtime_context() -> RuntimeContext:
    return RuntimeContext()
