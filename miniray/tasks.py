"""Normal tasks: submission, argument resolution, placement, attempts, retries and lineage.

One state machine over TaskSpec (miniray/task_spec.py), each transition reading the ones beside
it; the caller-facing errors live in task_errors.py, a blocked attempt's CPU in blocking.py.

A task's lineage is re-run when every copy of a return is lost (within its max_retries budget,
which failures and reconstructions share, as in Ray).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import exceptions as exc
from . import generators, retry
from .blocking import depth
from .cluster import PREEMPTED, Node, Worker
from .events import Kind
from .execution import BodyRun
from .isolation import Export
from .objects import ObjectEntry, ObjectRef
from .states import TERMINAL, ObjectState, TaskState
from .task_errors import arg_error, wrap
from .task_spec import TaskSpec as TaskSpec  # re-exported: where the managers' users import it
from .task_spec import demand as demand
from .task_spec import freeze_args as freeze_args
from .waitable import Event, all_of

if TYPE_CHECKING:  # types only: the runtime imports this module
    from .runtime import Runtime


class TaskManager:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self.queue: dict[tuple, deque] = {}  # placement key -> specs waiting for a node, FIFO
        self.seq = 0
        self.all: list[TaskSpec] = []

    # -- submission ---------------------------------------------------------------------------
    def submit(self, spec: TaskSpec, num_returns: int) -> list[ObjectRef]:
        refs = [self.rt.objects.create(spec.owner, spec, i) for i in range(num_returns)]
        spec.returns = [r.hex() for r in refs]
        if spec.generator == generators.STREAMING:  # its returns arrive one yield at a time
            spec.stream = generators.Stream(self.rt, spec)
        self.all.append(spec)
        self.rt.emit(
            Kind.TASK_SUBMIT, task=spec.name, id=spec.task_id[:12], ordinal=spec.ordinal, owner=spec.owner.pid
        )
        if spec.kind == "actor_task":
            self.rt.actors.accept(spec)
        else:
            self.resolve(spec)
        return refs

    def resolve(self, spec: TaskSpec) -> None:
        """Wait for every ObjectRef argument; then queue for a node (or fail without running)."""
        if spec.cancelled:  # ray.cancel: a cancelled task never runs again (miniray/cancel.py)
            return
        spec.state = TaskState.PENDING_ARGS_AVAIL
        # Ids, not refs: what waits here must not be what keeps the arguments alive.
        deps = [ref.hex() for ref in spec.deps()]
        if not deps:
            spec.arg_values, spec.kwarg_values = spec.args, spec.kwargs
            self.enqueue(spec)
            return
        settled = [self.rt.objects.settled(oid) for oid in deps]
        all_of(settled).add(lambda _all: self._args_settled(spec, deps, settled))

    def _args_settled(self, spec: TaskSpec, deps: list[str], settled: list[Event]) -> None:
        outcomes = {oid: event.value for oid, event in zip(deps, settled)}
        for oid in deps:  # the first failed argument, in argument order, fails the task
            kind, value = outcomes[oid]
            if kind == "error":
                self.fail_returns(spec, arg_error(spec, value))
                if spec.kind == "actor_task":
                    self.rt.actors.pump(spec.the_actor())  # let the calls queued behind it run
                return
        values = {oid: outcome[1] for oid, outcome in outcomes.items()}
        spec.arg_values = tuple(values[a.hex()] if isinstance(a, ObjectRef) else a for a in spec.args)
        spec.kwarg_values = {
            k: values[v.hex()] if isinstance(v, ObjectRef) else v for k, v in spec.kwargs.items()
        }
        self.enqueue(spec)

    # -- placement ----------------------------------------------------------------------------
    def enqueue(self, spec: TaskSpec) -> None:
        if spec.cancelled:  # ray.cancel while its arguments were resolving (miniray/cancel.py)
            return
        if spec.kind == "actor_task":
            self.rt.actors.arg_ready(spec)
            return
        spec.state = TaskState.PENDING_NODE_ASSIGNMENT
        self.seq += 1
        spec.seq = self.seq
        # A queue per shape and scheduling class: a class held back by Ray's cap on its running
        # tasks (miniray/blocking.py) must not hold back another function's tasks of its shape.
        key = (*self.rt.scheduler.placement_key(spec), spec.name, depth(spec))
        self.queue.setdefault(key, deque()).append(spec)
        self.rt.request_dispatch()

    def dispatch(self) -> None:
        """Place queued work in submission order; a shape that can't be placed now waits."""
        while True:
            heads = sorted((q[0].seq, key) for key, q in self.queue.items() if q)
            placed = False
            for _, key in heads:
                spec = self.queue[key][0]
                node = self.rt.scheduler.pick(spec)
                if node is None:
                    if self.rt.scheduler.unschedulable(spec):
                        self.queue[key].popleft()
                        self.fail_returns(spec, self.rt.scheduler.unschedulable(spec))
                        placed = True
                        break
                    continue
                self.queue[key].popleft()
                if spec.kind == "actor_creation":
                    self.rt.actors.place(spec, node)
                else:
                    self.start(spec, node)
                placed = True
                break
            if not placed:
                return

    def has_queued(self) -> bool:
        """Is any task waiting for a node?"""
        return any(self.queue.values())

    def waiting_specs(self) -> list[TaskSpec]:
        return sorted((s for q in self.queue.values() for s in q), key=lambda s: s.seq)

    # -- attempts -----------------------------------------------------------------------------
    def start(self, spec: TaskSpec, node: Node) -> None:
        node.acquire(spec.resources)
        if self.rt.lending.next_update:  # a class held back by Ray's cap (miniray/blocking.py)
            self.rt.lending.started(spec, node)
        worker = self.rt.lease_worker(node)
        worker.task = spec
        self.launch(
            spec,
            node,
            worker,
            spec.fn,
            spec.name,
            on_return=lambda value: self.finished(spec, value),
            on_raise=lambda e, tb: self.raised(spec, e, tb),
            timer_label="start",
            export=spec.export,
        )

    def launch(
        self,
        spec: TaskSpec,
        node: Node,
        worker: Worker,
        fn: Callable,
        label: str,
        on_return: Callable[[Any], None],
        on_raise: Callable[[BaseException, str], None],
        instance: Any = None,
        timer_label: str = "start",
        export: Export | None = None,
    ) -> None:
        """Start one attempt of a task or actor call on `worker`: the one place an attempt begins."""
        spec.node, spec.worker, spec.pid = node, worker, worker.pid
        spec.attempts += 1
        spec.state = TaskState.RUNNING
        deps = spec.deps()
        fetch = self.rt.objects.stores.fetch_cost(deps)  # spilled arguments are read from disk first
        self.rt.objects.stores.copy_args(deps, node)  # and pulled to the node that runs it, as Ray does
        extra = {"fetch_s": fetch} if fetch else {}
        self.rt.emit(
            Kind.TASK_START, task=spec.name, attempt=spec.key, node=node.name, worker=worker.pid, **extra
        )
        body = BodyRun(
            self.rt,
            worker,
            spec.key,
            label,
            fn,
            spec.arg_values or (),
            spec.kwarg_values or {},
            on_return=on_return,
            on_raise=on_raise,
            instance=instance,
            export=export,
        )
        worker.body = body
        timer = self.rt.call_later(fetch, body.start, label=timer_label)
        if fetch:
            body.timers.append(timer)  # a worker that dies while reading never starts the body

    def _release(self, spec: TaskSpec) -> None:
        node, worker = spec.node, spec.worker
        lending = self.rt.lending
        held = lending.held(spec) if lending.loans else spec.resources  # less what it lent, if blocked
        if node is not None:
            node.release(held)
        if worker is not None and worker.alive:
            worker.body = None
            worker.task = None
            worker.node.idle.append(worker)
        spec.worker = None
        self.rt.request_dispatch()

    def finished(self, spec: TaskSpec, value: Any) -> None:
        node = spec.node
        self._release(spec)
        self.store_returns(spec, value, node)

    def store_returns(self, spec: TaskSpec, value: Any, node) -> None:
        if spec.stream is not None:  # a streaming generator: every yield is already stored
            spec.state = TaskState.FINISHED
            self.rt.emit(Kind.TASK_FINISH, task=spec.name, attempt=spec.key, node=node.name)
            spec.stream.end(produced=value)  # the body returns how many items it yielded
            self.release_lineage(spec)
            return
        n = len(spec.returns)
        if n == 1:
            values = [value]
        else:
            try:
                values = list(value)
            except TypeError:
                values = []
            if len(values) != n:
                err = ValueError(
                    f"Task {spec.name} declared num_returns={n} but returned "
                    f"{type(value).__name__} {value!r:.60}"
                )
                self.fail_returns(spec, wrap(spec, err, f"ValueError: {err}\n"))
                return
        spec.state = TaskState.FINISHED
        self.rt.emit(Kind.TASK_FINISH, task=spec.name, attempt=spec.key, node=node.name)
        for oid, v in zip(spec.returns, values):
            entry = self.rt.objects.entries.get(oid)
            if entry is not None:
                self.rt.objects.store(entry, v, node)
        self.release_lineage(spec)

    def raised(self, spec: TaskSpec, error: BaseException, tb: str) -> None:
        self._release(spec)
        again = retry.after_error(spec, error)
        self.rt.emit(
            Kind.TASK_ERROR, task=spec.name, attempt=spec.key, error=type(error).__name__, retry=again
        )
        if again:
            self.retry_later(spec)
            return
        self.fail_returns(spec, wrap(spec, error, tb))

    def system_failure(self, spec: TaskSpec, cause: str) -> None:
        """The worker or node died under the attempt: retry within budget, else fail the returns."""
        node = spec.node
        assert node is not None  # it was running there
        lending = self.rt.lending
        held = lending.held(spec) if lending.loans else spec.resources
        if node.alive:
            node.release(held)
        spec.worker = None
        if cause == "oom":  # the memory monitor's kill: its own retry counter and error (miniray/memory)
            self.rt.memory.task_killed(spec)
            self.rt.request_dispatch()
            return
        again = retry.after_death(spec, preempted=cause == "node_died" and node.death[0] == PREEMPTED)
        self.rt.emit(Kind.TASK_FAIL, task=spec.name, attempt=spec.key, cause=cause, retry=again)
        if again:
            self.retry_later(spec)
        elif cause == "node_died":
            self.fail_returns(
                spec,
                exc.NodeDiedError(f"Task {spec.name} failed because node {node.node_id} running it died."),
            )
        else:
            self.fail_returns(spec, exc.WorkerCrashedError())
        self.rt.request_dispatch()

    def retry_later(self, spec: TaskSpec) -> None:
        spec.state = TaskState.PENDING_ARGS_AVAIL
        self.rt.call_later(self.rt.config["task_retry_delay_s"], self.resolve, spec, label="retry")

    def fail_returns(self, spec: TaskSpec, error: BaseException) -> None:
        spec.state = TaskState.FAILED
        if spec.stream is not None:  # a generator's yielded items keep their values; the error ends it
            spec.stream.end(error)
            self.release_lineage(spec)
            return
        for oid in spec.returns:
            entry = self.rt.objects.entries.get(oid)
            if entry is not None:
                self.rt.objects.fail(entry, error)
        self.release_lineage(spec)

    def release_lineage(self, spec: TaskSpec) -> None:
        """Once a finished task's returns are all out of scope nothing can rebuild them, so, as
        Ray does, its lineage lets go of its argument refs and their objects can be freed."""
        if spec.state not in TERMINAL or any(oid in self.rt.objects.entries for oid in spec.returns):
            return
        # Refs nested in arguments (a list of refs) are held by both the arguments and their values.
        spec.args, spec.kwargs, spec.arg_values, spec.kwarg_values = (), {}, None, None

    # -- lineage reconstruction ---------------------------------------------------------------
    def reconstruct(self, entry: ObjectEntry) -> None:
        spec = entry.task
        objects = self.rt.objects
        if spec is None:
            objects.fail(
                entry, exc.ObjectReconstructionFailedError(entry.object_id, "OBJECT_UNRECONSTRUCTABLE_PUT")
            )
            return
        if spec.state not in TERMINAL:
            entry.state = ObjectState.PENDING  # its task is already running again
            return
        refused = retry.reconstruction_refused(spec)
        if refused is not None:
            objects.fail(entry, exc.ObjectReconstructionFailedError(entry.object_id, refused))
            return
        self.rt.emit(Kind.TASK_RECONSTRUCT, task=spec.name, id=spec.task_id[:12], object=entry.object_id[:12])
        for oid in spec.returns:
            e = objects.entries.get(oid)
            if e is not None and not objects.available(e):
                e.state = ObjectState.PENDING
        if spec.kind == "actor_task":
            self.rt.actors.resubmit(spec)
        else:
            self.resolve(spec)
