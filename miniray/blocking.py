"""A task blocked in `get` or `wait` gives its CPU back, and takes it back when it resumes.

What Ray 2.60 does (recorded in the `blocked_yield` conformance scenario), and miniray with it:

* a normal task that blocks in `ray.get` or `ray.wait` hands its CPU back to its node (the
  raylet's ReleaseCpuResourcesFromBlockedWorker): other work can run on it meanwhile. Only CPU:
  GPUs, memory and custom resources stay held. In a placement-group bundle the CPU goes back to
  the bundle (its `CPU_group_...` resources), so a task nested in the same bundle can run;
* when the `get` returns, the task takes its CPU back at once, even if that oversubscribes the
  node (Ray subtracts it "allowing negative"): nothing new starts there until it is paid back;
* an actor keeps its resources while a method blocks (Ray releases nothing for an actor call: it
  holds its resources for its lifetime); a default actor holds no CPU while it runs anyway;
* a `time.sleep` gives nothing back.

Lending CPU would let one function's blocked tasks flood a node with more of themselves, so Ray
caps the running tasks of one scheduling class (function, resource shape, depth) on a node at its
CPUs divided by the task's, blocked ones included; past the cap, one more may start only after a
backoff (1 s, doubling per task over the cap, at most 10 s: `worker_cap_*` in `_system_config`).
That cap is why, on Ray, the inner tasks of blocked outer tasks run before a third outer task.
It can only bind on a node where a task is blocked, so it costs nothing anywhere else.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .cluster import Node
from .states import TaskState

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .execution import BodyRun
    from .runtime import Runtime
    from .task_spec import TaskSpec

INITIAL_BACKOFF_MS = 1000  # Ray 2.60's worker_cap_initial_backoff_delay_ms
MAX_BACKOFF_MS = 10_000  # and worker_cap_max_backoff_delay_ms


def _is_cpu(name: str) -> bool:
    """CPU, or a placement group's CPU (`CPU_group_<pg>` and `CPU_group_<i>_<pg>`), as Ray's
    IsCPUOrPlacementGroupCPUResource reads it."""
    return name == "CPU" or name.startswith("CPU_group_")


def depth(spec: TaskSpec) -> int:
    """Its depth in the task tree, as Ray counts it: 1 for the driver's tasks, one more per task
    whose worker submitted it. Read from the owners' running tasks, not kept on TaskSpec (see
    `Lending.loans`): right while the parent runs, which it does while it waits for its child."""
    n, owner = 1, spec.owner
    while owner.task is not None and n < 64:
        n, owner = n + 1, owner.task.owner
    return n


def class_key(spec: TaskSpec) -> tuple:
    """Ray's scheduling class: the function, its resource shape and its depth in the task tree."""
    return (spec.name, tuple(sorted(spec.resources.items())), depth(spec))


class Lending:
    """The CPU that blocked tasks have handed back, and Ray's per-class cap on running tasks."""

    def __init__(self, rt: Runtime):
        self.rt = rt
        cfg = rt.system_config
        self.cap_enabled = bool(cfg.get("worker_cap_enabled", True))
        self.initial_s = float(cfg.get("worker_cap_initial_backoff_delay_ms", INITIAL_BACKOFF_MS)) / 1000
        self.max_s = float(cfg.get("worker_cap_max_backoff_delay_ms", MAX_BACKOFF_MS)) / 1000
        # The CPU each blocked task lent, kept here rather than on TaskSpec: one more attribute
        # there would give every TaskSpec a dict of its own (CPython 3.11's shared keys hold its
        # 29), which the garbage collector then walks (10 % of bench/sim_events.py).
        self.loans: dict[TaskSpec, dict[str, float]] = {}
        self.lenders: dict[Node, int] = {}  # node -> tasks blocked on it that gave CPU back
        self.next_update: dict[tuple, float] = {}  # (node, class) -> when one more may start

    # -- a blocked attempt's CPU -----------------------------------------------------------------
    def lend(self, body: BodyRun) -> None:
        """The body blocks in get/wait: a normal task's CPU goes back to its node (or bundle)."""
        worker = body.worker
        spec = worker.task
        if spec is None or spec.kind != "task" or spec in self.loans or spec.worker is not worker:
            return  # an actor (worker.task is None), or already lent
        cpu = {k: v for k, v in spec.resources.items() if _is_cpu(k)}
        if not cpu:
            return
        node = worker.node
        node.release(cpu)
        self.loans[spec] = cpu
        self.lenders[node] = self.lenders.get(node, 0) + 1
        self.rt.request_dispatch()

    def reclaim(self, spec: TaskSpec) -> None:
        """Its get returned and it runs again: the CPU comes back, oversubscribing if it must."""
        lent, node = self.loans.get(spec), spec.node
        if not lent or node is None:
            return
        self._forget(spec, node)
        if node.alive:
            node.acquire(lent)  # may go below zero, as Ray's does: no new work fits until it is paid back

    def held(self, spec: TaskSpec) -> dict[str, float]:
        """What the attempt holds on its node now (what its end gives back), and forget any loan."""
        lent, node = self.loans.get(spec), spec.node
        if not lent:
            return spec.resources
        if node is not None:
            self._forget(spec, node)
        return {k: v for k, v in spec.resources.items() if k not in lent}

    def _forget(self, spec: TaskSpec, node: Node) -> None:
        del self.loans[spec]
        left = self.lenders.get(node, 0) - 1
        if left > 0:
            self.lenders[node] = left
        else:
            self.lenders.pop(node, None)

    # -- Ray's cap on one scheduling class's running tasks ----------------------------------------
    def capped(self, spec: TaskSpec, node: Node) -> bool:
        """Is `spec`'s class at its cap on `node` and still backing off? Only while a task blocked
        there: otherwise the running tasks of a class hold their CPUs and cannot exceed it."""
        if not self.lenders.get(node) or not self.cap_enabled or spec.kind != "task":
            return False
        need = spec.resources.get("CPU", 0.0)  # a bundle's task asks for CPU_group_...: no cap, as in Ray
        cpus = node.total.get("CPU", 0.0)
        if need <= 0 or cpus <= 0:
            return False
        capacity = max(1, round(cpus / need))
        key = class_key(spec)
        running = sum(
            1
            for w in node.workers
            if w.task is not None and w.task.state == TaskState.RUNNING and class_key(w.task) == key
        )
        if running < capacity:
            return False
        now = self.rt.now()
        slot = (node, key)
        due = self.next_update.get(slot, math.inf)
        if now >= due:
            return False
        wait = min(self.initial_s * (1 << (running - capacity)), self.max_s)
        if now + wait < due:
            self.next_update[slot] = now + wait
            self.rt.call_at(now + wait, self.rt.request_dispatch, label="worker-cap")
        return True

    def started(self, spec: TaskSpec, node: Node) -> None:
        """One of the class started on the node: the next one over the cap waits afresh."""
        self.next_update.pop((node, class_key(spec)), None)
