"""Ray 2.60's rules for the memory monitor's kills: the victim, the retry and the error.

Sources (Ray's "Out-Of-Memory Prevention" page for 2.56 and later, and its task manager):
- Victim (the default policy since Ray 2.56): among the workers running tasks or actors, a
  retriable one first (a task with `max_retries` != 0, an actor with `max_restarts` != 0); among
  those equally retriable, the one whose lease was granted most recently. (Ray first kills idle
  workers; miniray's idle workers hold no memory, so there are none worth killing.)
- Legacy policy (`worker_killing_policy_by_group: True`): group running work by its caller;
  retriable groups first, then the group with the most running tasks, then the one whose oldest
  task started latest; inside the group, the newest task. A group's last task is killed but not
  retried, so at least one task per caller can make progress.
- Retry: a task killed by the monitor runs again on its own counter (`task_oom_retries`, -1: no
  limit), not `max_retries`, unless `max_retries` is 0; the delay before attempt n+1 is
  `task_oom_retry_delay_base_ms` * 2**n (n counted from 0), capped at 60 s. An actor restarts
  under `max_restarts`, as after any other death of its process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..cluster import Node, Worker

MAX_BACKOFF_S = 60.0  # Ray's ExponentialBackoff cap for OOM retries
GB = 1e9  # Ray's OOM messages print decimal gigabytes


@dataclass(frozen=True)
class Candidate:
    """A worker the monitor may kill, with what the policy weighs."""

    worker: Worker
    retriable: bool
    started: tuple[float, int]  # (virtual time, log index) its lease was granted: later is newer
    owner: str  # the caller that submitted the work (the legacy policy groups by it)
    used: float  # bytes it holds now


def retriable(worker: Worker) -> bool:
    if worker.actor is not None:
        return worker.actor.max_restarts != 0
    spec = worker.task
    return spec is not None and spec.max_retries != 0


GiB = 1024**3
KILL_BUFFER_FRACTION = 0.05  # Ray's kill buffer: 5 % of the node's memory...
MAX_KILL_BUFFER_BYTES = 3 * GiB  # ...at most 3 GiB (max_kill_memory_buffer_bytes)


def choose_set(
    candidates: list[Candidate], used: float, capacity: float, threshold: float
) -> list[Candidate]:
    """Ray 2.60's default policy (by time): retriable work before the rest, the newest lease
    first within each, picked until what they hold would bring the node under the threshold less
    the kill buffer; all of them are killed in one pass."""
    target = threshold * capacity - min(KILL_BUFFER_FRACTION * capacity, MAX_KILL_BUFFER_BYTES)
    ranked = sorted(candidates, key=lambda c: (c.retriable, c.started), reverse=True)
    chosen: list[Candidate] = []
    for c in ranked:
        chosen.append(c)
        used -= c.used
        if used <= target:
            break
    return chosen


def choose(candidates: list[Candidate], by_group: bool) -> tuple[Candidate, bool]:
    """One worker to kill, and whether its task may be retried (False: the legacy policy took a
    group's last task)."""
    if not by_group:
        return max(candidates, key=lambda c: (c.retriable, c.started)), True
    groups: dict[str, list[Candidate]] = {}
    for c in candidates:
        groups.setdefault(c.owner, []).append(c)

    def rank(members: list[Candidate]) -> tuple:
        return (
            all(c.retriable for c in members),
            len(members),
            min(c.started for c in members),
        )

    group = max(groups.values(), key=rank)
    victim = max(group, key=lambda c: c.started)
    return victim, len(group) > 1


def oom_retry_delay_s(failed_attempt: int, base_ms: float) -> float:
    """Seconds before the next attempt; `failed_attempt` counts from 0 (Ray's AttemptNumber)."""
    if base_ms <= 0:
        return 0.0
    return min(base_ms / 1000.0 * 2.0 ** min(failed_attempt, 62), MAX_BACKOFF_S)


def kill_message(node: Node, used: float, capacity: float, threshold: float, victims: list[Candidate]) -> str:
    """The text of the OutOfMemoryError, in the shape of Ray 2.55 and later's message."""
    listed = ", ".join(f"({_label(v)}, pid={v.worker.pid}, memory used={v.used / GB:.2f}GB)" for v in victims)
    n = len(victims)
    return (
        f"{n} worker(s) were killed due to the node running low on memory.\n"
        f"Memory on the node (IP: {node.address}, ID: {node.node_id}) was {used / GB:.2f}GB / "
        f"{capacity / GB:.2f}GB ({used / capacity:.6f}), which exceeds the memory usage threshold of "
        f"{threshold:.6f}. Ray killed {n} worker(s) based on the killing policy: [{listed}].\n"
        "Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider "
        "provisioning more memory on this node or reducing task parallelism by requesting more CPUs "
        "per task. To adjust the kill threshold, set the environment variable "
        "`RAY_memory_usage_threshold` when starting Ray. To disable worker killing, set the "
        "environment variable `RAY_memory_monitor_refresh_ms` to zero."
    )


def _label(victim: Candidate) -> str:
    return (
        f"Actor {victim.worker.actor.class_name}" if victim.worker.actor is not None else _task_label(victim)
    )


def _task_label(victim: Candidate) -> str:
    spec = victim.worker.task
    return f"Task {spec.name}" if spec is not None else "Task"
