"""The states of tasks, actors, objects and nodes, as enums with Ray's names.

Each member is a `str` that compares, hashes, formats and even prints (repr) like the plain name,
so the event log, the state API's rows and any learner code comparing with "RUNNING" see exactly
what they saw when these were bare strings.
"""

from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    def __repr__(self) -> str:
        return repr(self.value)


class TaskState(State):
    """Ray's TaskStatus names, the ones a simulated task goes through."""

    PENDING_ARGS_AVAIL = "PENDING_ARGS_AVAIL"
    PENDING_NODE_ASSIGNMENT = "PENDING_NODE_ASSIGNMENT"
    PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY = "PENDING_ACTOR_TASK_ORDERING_OR_CONCURRENCY"
    RUNNING = "RUNNING"
    FINISHED = "FINISHED"
    FAILED = "FAILED"


TERMINAL = (TaskState.FINISHED, TaskState.FAILED)


class ActorState(State):
    """Ray's actor states: PENDING_CREATION -> ALIVE -> (RESTARTING -> ALIVE)* -> DEAD."""

    PENDING_CREATION = "PENDING_CREATION"
    ALIVE = "ALIVE"
    RESTARTING = "RESTARTING"
    DEAD = "DEAD"


class ObjectState(State):
    """Whether an object's value is settled: not yet, a value, or an error."""

    PENDING = "pending"
    READY = "ready"
    ERROR = "error"


class NodeState(State):
    """A node as the cluster sees it (the state API's `state` column)."""

    ALIVE = "ALIVE"
    DEAD = "DEAD"


class NodeHealthState(State):
    """What a failure detector (miniray.liveness) believes about a worker node."""

    ALIVE = "ALIVE"
    SUSPECT = "SUSPECT"
    DEAD = "DEAD"
