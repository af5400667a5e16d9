"""A course model (not miniray, not Ray) of Ray's memory monitor and the OOM cascade of seed 004.

What it keeps from Ray 2.60:
- `@ray.remote(memory=...)` is a scheduling request only: a task is placed where the requests of
  the tasks already there leave room, and nothing stops it from using more.
- Each node's memory monitor samples usage every `refresh_s` (Ray: `memory_monitor_refresh_ms`,
  250 ms) and, above `threshold` of the node's memory (Ray: `memory_usage_threshold`, 0.95),
  kills a worker; the task fails with `OutOfMemoryError` and is retried on its own counter
  (Ray: `task_oom_retries`), separate from `max_retries`.
- The victims are the tasks that started most recently, as many as it takes to get back under
  the threshold (Ray 2.56 and later may kill several workers and pick them by how long their task
  has run; older releases killed one at a time and grouped tasks by owner first).
What it simplifies, and says so on the page: one fixed retry delay instead of Ray's backoff, a
task's memory grows linearly from `base_gb` to its peak over its run, and nothing else on the
node uses memory (no object store, no raylet).
"""

from __future__ import annotations

from dataclasses import dataclass, field

BASE_GB = 0.5  # a fresh worker's footprint


@dataclass(frozen=True)
class TaskSpec:
    name: str
    request_gb: float  # memory=, for placement only
    peak_gb: float  # what it really uses by the end of its run
    duration_s: float


@dataclass
class _Attempt:
    spec: TaskSpec
    number: int
    node: int
    start: float

    def usage(self, now: float) -> float:
        done = min(1.0, (now - self.start) / self.spec.duration_s)
        return BASE_GB + (self.spec.peak_gb - BASE_GB) * done


@dataclass
class OomRun:
    log: list[str] = field(default_factory=list)
    kills: int = 0
    collateral: int = 0  # kills of tasks that were within their own request
    wasted_s: float = 0.0  # task-seconds of work thrown away by kills
    finished: int = 0
    failed: int = 0  # tasks that ran out of OOM retries
    end_s: float = 0.0


def simulate(
    tasks: list[TaskSpec],
    nodes: int = 2,
    node_gb: float = 16.0,
    cpus: int = 4,
    threshold: float = 0.95,
    refresh_s: float = 0.25,
    retry_delay_s: float = 1.0,
    oom_retries: int = 15,
    horizon_s: float = 120.0,
) -> OomRun:
    """Run the tasks (submitted at t = 0, in order) to the end or to `horizon_s`; fully deterministic."""
    out = OomRun()
    queue: list[tuple[float, TaskSpec, int]] = [(0.0, spec, 1) for spec in tasks]  # (ready at, spec, attempt)
    running: list[_Attempt] = []
    step = 0
    while (queue or running) and step * refresh_s <= horizon_s:
        now = round(step * refresh_s, 6)
        for attempt in [a for a in running if now - a.start >= a.spec.duration_s]:
            running.remove(attempt)
            out.finished += 1
            out.end_s = now
            out.log.append(
                f"{now:6.2f}  {attempt.spec.name}#{attempt.number} finished on node:{attempt.node + 1}"
            )
        for item in [q for q in queue if q[0] <= now]:  # FIFO placement by request only
            _, spec, number = item
            for node in range(nodes):
                here = [a for a in running if a.node == node]
                if len(here) < cpus and sum(a.spec.request_gb for a in here) + spec.request_gb <= node_gb:
                    queue.remove(item)
                    running.append(_Attempt(spec, number, node, now))
                    out.log.append(f"{now:6.2f}  {spec.name}#{number} starts on node:{node + 1}")
                    break
        for node in range(nodes):
            here = [a for a in running if a.node == node]
            used = sum(a.usage(now) for a in here)
            while here and used > threshold * node_gb:  # newest first, until the node is back under
                victim = max(here, key=lambda a: (a.start, tasks.index(a.spec)))
                here.remove(victim)
                running.remove(victim)
                out.kills += 1
                out.wasted_s += now - victim.start
                if victim.usage(now) <= max(victim.spec.request_gb, BASE_GB):
                    out.collateral += 1
                verdict = "retry" if victim.number <= oom_retries else "fails: OutOfMemoryError"
                out.log.append(
                    f"{now:6.2f}  node:{node + 1} at {used:.1f} of {node_gb:g} GB (> {threshold:.0%}): memory monitor "
                    f"kills {victim.spec.name}#{victim.number} (using {victim.usage(now):.1f} GB, "
                    f"asked for {victim.spec.request_gb:g}) -> {verdict}"
                )
                used -= victim.usage(now)
                if victim.number <= oom_retries:
                    queue.append((now + retry_delay_s, victim.spec, victim.number + 1))
                else:
                    out.failed += 1
        step += 1
    return out


def cascade_workload(hungry_request_gb: float) -> list[TaskSpec]:
    """Seed 004's cascade: one task that peaks at 13 GB among ten that need 2 GB each."""
    hungry = TaskSpec("hungry", hungry_request_gb, 13.0, 4.0)
    normal = [TaskSpec(f"normal{i}", 2.0, 2.0, 4.0) for i in range(1, 11)]
    return [hungry, *normal]
