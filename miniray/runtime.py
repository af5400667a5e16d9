"""The simulated cluster's state in one place, and the loop that drives it from the driver.

The driver (the learner's script) is outside the simulation: it takes no virtual time. Only its
blocking calls (`get`, `wait`, `miniray.sim.sleep`) run events, and they stop with a clear error
when an event budget or a time budget is spent, or when nothing left can ever make progress.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actors import ActorManager
from .blocking import Lending
from .cluster import HEALTH_CHECK_FAILED, UNEXPECTED_TERMINATION, Node, Worker
from .drain import DRAINED_DEATH, Drains
from .events import CATALOGUE, Kind
from .exceptions import BudgetExceeded, Stalled
from .execution import BodyRun
from .faults import FaultInjector
from .head import Gcs
from .ids import IdMaker
from .isolation import Exports, process_salt
from .kernel import Kernel, Timer
from .line_budget import LineBudgetExceeded
from .log import EventLog
from .memory import MemoryMonitor
from .objects import ObjectTable
from .placement.manager import PlacementManager
from .scheduler import Scheduler
from .states import ActorState
from .tasks import TaskManager, TaskSpec

DEFAULT_CONFIG = {
    "task_retry_delay_s": 1.0,  # Ray 2.60 spaces consecutive attempts about 1 s apart
    "actor_restart_delay_s": 1.0,
    "max_events": 2_000_000,
    "max_virtual_seconds": 10_000_000.0,
    # Spilling (miniray/objects.py). Ray starts spilling at 0.8 of the store by default; the
    # course's spill cliff is at the store size, so miniray's default is 1.0 (set it to 0.8 to match).
    "object_spilling_threshold": 1.0,
    "object_spilling_read_bytes_per_s": 500e6,  # a local SSD read, the seed's 500 MB/s
    "max_body_lines": None,  # lines of user code one attempt may run; None: no limit (as in Ray)
    # Note the learner's file:line of each journal entry (Run.journals, the debugger's code links).
    # A grader's search over hundreds of schedules turns it off, as it turns the log's text off.
    "journal_sites": True,
}


def _noop() -> None:
    pass


def _module_test(names: frozenset[str]) -> Callable[[str], bool]:
    """Is a module one of `names`, or inside one of them?"""
    prefixes = tuple(f"{name}." for name in names)
    return lambda module: module in names or module.startswith(prefixes)


def _never() -> bool:
    return False


class Runtime:
    """One simulated cluster: the kernel, the log and the managers of Ray's parts, wired together.

    Extensions (the failure detector, attribution, the metrics sampler) plug in through the hooks
    declared here and never by adding attributes: `dispatch_listeners`, `node_failure_hold`,
    `scheduler.node_filters`, `log.listeners` and `kernel.observers`.
    """

    # What `ray.cancel` does once it reaches a task (miniray/cancel.py registers it as it loads):
    # the `cancel_task` fault kind calls it, so the fault table needs no import of cancel.py.
    canceller: Callable[..., None] | None = None

    def __init__(
        self,
        seed: int = 0,
        system_config: dict | None = None,
        faults=None,
        by_value: frozenset[str] = frozenset({"__main__"}),
        library: frozenset[str] = frozenset({"miniray"}),
    ):
        self.seed = seed
        self.config: dict = dict(DEFAULT_CONFIG)
        self.system_config: dict = dict(system_config or {})
        for key in DEFAULT_CONFIG:
            if key in self.system_config:
                self.config[key] = self.system_config[key]
        self._kernel = Kernel()
        self.ids = IdMaker(seed)
        self._log = EventLog(CATALOGUE, steps=self._kernel.step_count)
        self.alive = True
        self.nodes: list[Node] = []
        self._current: list[BodyRun] = []  # stack of bodies executing now (empty: the driver)
        # Each attempt's journal as (operation, learner's file:line), kept after it ends (sim.Run).
        self.journals: dict[str, list[tuple[str, str]]] = {}
        self.library = (library, tuple(f"{name}." for name in library))  # as journal.learner_site takes it
        self.exports = Exports(_module_test(by_value), _module_test(library))  # as first exported
        self.ordinals: dict[str, int] = {}
        self.pids = 10000
        self.workers: list[Worker] = []  # every worker ever started, dead ones too (state API)
        self._dispatch_timer: Timer | None = None
        # Called on every scheduling request (the failure detector re-arms its probes here).
        self.dispatch_listeners: list[Callable[[], None]] = []
        # When set (by a failure detector), a task whose node crashed is handed to it instead of
        # failing at once; it returns True if it took the task and will fail it at its verdict.
        self.node_failure_hold: Callable[[Node, TaskSpec], bool] | None = None
        self.objects = ObjectTable(self)
        self.tasks = TaskManager(self)
        self.actors = ActorManager(self)
        self.scheduler = Scheduler(self)
        self.drains = Drains(self)  # the GCS's draining table (miniray/drain.py)
        self.lending = Lending(self)  # the CPU that tasks blocked in get/wait gave back (miniray/blocking.py)
        self.placement = PlacementManager(self)  # placement groups (adds no events until one exists)
        self.gcs = Gcs(self)  # the head node's GCS (miniray/head): alive until killed
        self.memory = MemoryMonitor(self)  # the raylets' OOM killer (idle until memory use is declared)
        self.faults = FaultInjector(self, faults or [])
        self.driver: Worker | None = None
        # Opaque to the core: the detector (miniray.liveness) and sampler (miniray.observe.metrics)
        # attached to this runtime, so each is found again from the runtime alone.
        self.liveness: Any = None
        self.metrics: Any = None

    # -- the clock: what managers and plug-ins ask of the kernel, by name ------------------------
    def now(self) -> float:
        """The virtual time, in seconds."""
        return self._kernel.now

    def call_at(self, time: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        """Run fn(*args) at virtual time `time` (cancel it through the Timer)."""
        return self._kernel.at(time, fn, *args, label=label)

    def call_later(self, delay: float, fn: Callable, *args: Any, label: str = "") -> Timer:
        """Run fn(*args) `delay` virtual seconds from now (cancel it through the Timer)."""
        return self._kernel.schedule(delay, fn, *args, label=label)

    def advance_quietly(self, when: float) -> bool:
        """Move the clock straight to `when` if nothing is due before it (a sleep or a disk read
        nobody can observe), and say whether it moved; else the caller waits on a timer."""
        nxt = self._kernel.peek()
        if nxt is not None and nxt <= when:
            return False
        self._kernel.now = when
        return True

    # -- bookkeeping ----------------------------------------------------------------------------
    def emit(self, kind: Kind, **fields: Any):
        return self._log.emit(self._kernel.now, kind, **fields)

    def next_ordinal(self, name: str) -> int:
        n = self.ordinals.get(name, 0) + 1
        self.ordinals[name] = n
        return n

    def node_by_id(self, node_id: str) -> Node | None:
        for node in self.nodes:
            if node.node_id == node_id or node.name == node_id:
                return node
        return None

    def caller(self) -> Worker:
        """The worker on whose behalf the current code runs: a body's worker, or the driver."""
        if self._current:
            return self._current[-1].worker
        assert self.driver is not None, "a runtime gets its driver with its head node"
        return self.driver

    # -- nodes and workers -----------------------------------------------------------------------
    def add_node(
        self,
        num_cpus: float = 1,
        resources: dict | None = None,
        labels: dict | None = None,
        object_store_memory: int = 2 * 1024**3,
        is_head: bool = False,
        num_gpus: float = 0,
    ) -> Node:
        total = {"CPU": float(num_cpus)}
        if num_gpus:
            total["GPU"] = float(num_gpus)
        total.update({k: float(v) for k, v in (resources or {}).items()})
        total["memory"] = total.get("memory", 8.0 * 1024**3)
        total["object_store_memory"] = float(object_store_memory)
        node = Node(len(self.nodes), self.ids.new("node"), total, labels or {}, object_store_memory, is_head)
        self.nodes.append(node)
        self.emit(
            Kind.NODE_ADD,
            node=node.name,
            id=node.node_id[:12],
            resources={k: v for k, v in total.items() if k not in ("memory", "object_store_memory")},
        )
        if is_head and self.driver is None:
            self.driver = self.new_worker(node, "driver")
        if is_head:
            node.on_kill_gcs = self.gcs.kill
        self.request_dispatch()
        return node

    def new_worker(self, node: Node, kind: str) -> Worker:
        self.pids += 1
        worker = Worker(self.ids.new("worker"), node, self.pids, kind, process_salt(self.seed, self.pids))
        node.workers.append(worker)
        self.workers.append(worker)
        return worker

    def lease_worker(self, node: Node) -> Worker:
        return node.idle.pop(0) if node.idle else self.new_worker(node, "task")

    def kill_worker(self, worker: Worker, cause: str) -> None:
        if not worker.alive:
            return
        worker.alive = False
        node = worker.node
        self.emit(Kind.WORKER_DIED, worker=worker.pid, node=node.name, cause=cause)
        if worker.body is not None:
            worker.body.stop()
            worker.body = None
        if worker in node.workers:
            node.workers.remove(worker)
        if worker in node.idle:
            node.idle.remove(worker)
        if worker.actor is not None:
            actor, worker.actor = worker.actor, None
            # "intended_exit": sys.exit(0) or exit_actor() in the actor (execution.exit_of);
            # "owner_died": the worker that created it died (ActorManager.owner_died).
            self.actors.process_died(
                actor,
                cause if cause in ("node_died", "killed", "intended_exit", "owner_died") else "worker_died",
            )
        elif worker.task is not None:
            spec, worker.task = worker.task, None
            hold = self.node_failure_hold
            if cause == "node_died" and hold is not None and hold(node, spec):
                pass  # the failure detector fails it when it declares the node dead
            else:
                self.tasks.system_failure(spec, cause if cause in ("node_died", "oom") else "worker_died")
        self.objects.owner_died(worker)
        self.actors.owner_died(worker)  # actors it created die with it, as in Ray (fate sharing)

    def kill_node(self, node: Node, cause: str = "removed") -> None:
        if not node.alive:
            return
        if node.is_head:
            raise ValueError(
                "The head node runs the driver and cannot be killed in miniray; "
                "put the work you want to lose on worker nodes (Cluster.add_node)."
            )
        node.alive = False
        if node.drain is not None:  # Ray's death reason for a drained node, however it goes
            node.death = (DRAINED_DEATH[node.drain.reason], node.drain.message)
        else:
            node.death = (UNEXPECTED_TERMINATION, HEALTH_CHECK_FAILED)
        self.drains.died(node)
        self.emit(Kind.NODE_DIED, node=node.name, id=node.node_id[:12], cause=cause)
        for worker in list(node.workers):
            self.kill_worker(worker, "node_died")
        self.node_lost(node)

    def node_lost(self, node: Node) -> None:
        """What a dead (or presumed dead) node takes with it once its workers are dealt with: the
        copies in its store and on its disk, and the placement-group bundles it held."""
        self.objects.stores.drop_node(node)
        self.placement.on_node_dead(node)
        self.request_dispatch()

    # -- scheduling ------------------------------------------------------------------------------
    def request_dispatch(self) -> None:
        """Coalesce placement into one event per instant: many releases, one scheduling pass."""
        if self._dispatch_timer is None:
            self._dispatch_timer = self._kernel.schedule(0.0, self._dispatch, label="dispatch")
        for listener in self.dispatch_listeners:
            listener()

    def _dispatch(self) -> None:
        self._dispatch_timer = None
        self.tasks.dispatch()
        self.placement.on_resources_changed()
        if self.drains.draining:  # a drained node that is idle now exits
            self.drains.settle()

    # -- driving the simulation from the driver ----------------------------------------------------
    def step(self) -> bool:
        kernel = self._kernel
        if kernel.steps >= self.config["max_events"]:
            raise BudgetExceeded(
                f"event budget exhausted: {kernel.steps} events ran (max_events="
                f"{self.config['max_events']}) by virtual time {kernel.now:.3f}s. A task that "
                "retries forever (max_retries=-1) or a loop that keeps submitting work never ends; "
                "raise the budget with miniray.sim.set_budget(max_events=...) if the run is just long."
            )
        nxt = kernel.peek()
        if nxt is not None and nxt > self.config["max_virtual_seconds"]:
            raise BudgetExceeded(
                f"virtual-time budget exhausted: the next event is at {nxt:.3f}s, past "
                f"max_virtual_seconds={self.config['max_virtual_seconds']}."
            )
        try:
            return kernel.step()
        except LineBudgetExceeded as e:
            raise BudgetExceeded(str(e)) from None

    def sleep(self, seconds: float) -> None:
        """Let `seconds` of virtual time pass in the driver, running whatever happens meanwhile."""
        self.run_until(_never, max(0.0, float(seconds)), "sleep")

    def run_until(self, done: Callable[[], bool], timeout: float | None, what: str) -> bool:
        """Run events until `done()`; False if the timeout (virtual seconds) passes first."""
        self.gcs.raise_if_exited()  # the driver already gave up on a dead GCS: its process is gone
        deadline = None if timeout is None else self._kernel.now + max(0.0, timeout)
        # A marker at the deadline keeps a sleeping body from fast-forwarding past it.
        marker = None if deadline is None else self._kernel.at(deadline, _noop, label="deadline")
        try:
            while not done():
                nxt = self._kernel.peek()
                if (
                    deadline is not None
                    and (nxt is None or nxt >= deadline)
                    and (nxt is None or self._kernel.next_timer() is marker)
                ):
                    self._kernel.now = max(self._kernel.now, deadline)
                    return done()
                if nxt is None:
                    raise Stalled(self.diagnose(what))
                self.step()
            return True
        finally:
            if marker is not None:
                marker.cancel()

    def diagnose(self, what: str) -> str:
        lines = [
            f"nothing can make progress: {what} at virtual time {self._kernel.now:.3f}s, "
            "and no event is left to run."
        ]
        for spec in self.tasks.waiting_specs():
            if self.scheduler.infeasible(spec):
                lines.append(
                    f"  - {spec.name} needs {spec.resources} but no alive node can ever "
                    "provide that (add a node or lower the request)."
                )
            else:
                lines.append(f"  - {spec.name} waits for {spec.resources} that running work holds.")
        for actor in self.actors.actors.values():
            if actor.state in (ActorState.RESTARTING, ActorState.PENDING_CREATION):
                lines.append(f"  - actor {actor!r} is {actor.state} and cannot be placed.")
        for node in self.nodes:
            for worker in node.workers:
                if worker.body is not None and worker.body.waiting:
                    lines.append(f"  - {worker.body.key} on {node.name} blocks in {worker.body.waiting}")
        lines += self.placement.diagnose_lines()
        return "\n".join(lines)
