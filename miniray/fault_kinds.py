"""The fault kinds, one entry each: what the fault holds, what it does, its `sim` helper, the
events it can cause, the move a grader's search may inject it as, and its words.

Adding a kind is one `@kind(...)` entry here on its handler (and its tests): `Fault` validates
and writes its token from the entry, `parse_token` types its values by it, the injector applies
it through it, `miniray.sim` offers its helper (`sim.<name>(...)`), and a grader's search makes
its moves and describes it from it. miniray/fault_entry.py says what an entry holds; see
docs/design/contributing.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .drain import PREEMPTION, REASONS
from .events import Kind
from .fault_entry import Boundary, FaultKind, Move, Param, registrar

if TYPE_CHECKING:  # types only: faults.py imports this module
    from .faults import Fault, FaultInjector

KINDS: dict[str, FaultKind] = {}
kind = registrar(KINDS)  # `@kind("kill_node", "...", events=..., move=...)` on its handler


def moves() -> dict[str, str]:
    """A grader's search moves, by move name: the fault kind each one injects."""
    return {k.move.name: k.name for k in KINDS.values() if k.move is not None}


# -- the kinds --------------------------------------------------------------------------------------
@kind(
    "kill_node",
    "Kill a node (not the head): its workers die, its objects' copies are gone.",
    events=(Kind.NODE_DIED, Kind.WORKER_DIED),
    move=Move("node_loss", Boundary.NODE_EVENT),
    words="node {target} is lost, with every worker and object on it",
)
def _kill_node(inj: FaultInjector, fault: Fault) -> None:
    node = inj.node(fault.target)
    if node is not None and node.alive and not node.is_head:
        inj.rt.kill_node(node, cause="fault")


def _freeze(inj: FaultInjector, fault: Fault) -> None:
    rt = inj.rt
    node = inj.node_of(fault.target)  # a node, or an attempt's (with step=: before that call)
    if node is not None and node.alive:
        until = rt.now() + (fault.duration if fault.duration > 0 else float("inf"))
        node.frozen_until = max(node.frozen_until, until)
        # The state change itself, a record beside the fault's: no view reads it out of the token.
        if node.frozen_until == float("inf"):
            rt.emit(Kind.NODE_PAUSED, node=node.name)  # hung: no `until`
        else:
            rt.emit(Kind.NODE_PAUSED, node=node.name, until=node.frozen_until)
        if until != float("inf"):
            rt.call_at(until, lambda: rt.emit(Kind.NODE_RESUMED, node=node.name), label="resume-node")


FROZEN_FOR = Param("duration", float, 0.0, "virtual seconds; 0: for good")

kind(
    "pause_node",
    "Freeze a node for `duration` virtual seconds: it runs nothing, then goes on as if nothing happened.",
    params=(FROZEN_FOR,),
    helper=("target", "duration"),
    events=(Kind.NODE_PAUSED, Kind.NODE_RESUMED),
    move=Move("pause", Boundary.NODE_EVENT, {"duration": 15.0}),
    words="node {target} freezes for {duration:g} s, then runs on",
)(_freeze)
kind(
    "hang_node",
    "Freeze a node; duration 0 means for good.",
    params=(FROZEN_FOR,),
    events=(Kind.NODE_PAUSED, Kind.NODE_RESUMED),
    words="node {target} stops answering",
)(_freeze)


@kind(
    "drain_node",
    "Drain a node as Ray's GCS DrainNode does (a cloud's preemption notice): no new work is placed "
    "there, its running work goes on, and once idle it exits by itself. `deadline_s` (virtual "
    "seconds from the strike; 0: none) is only announced: the drain kills nothing when it passes "
    "(a kill_node at the deadline is the caller's part, as in Ray).",
    params=(
        Param("reason", str, PREEMPTION, "Ray's DrainNodeReason name", choices=tuple(REASONS)),
        Param("deadline_s", float, 0.0, "virtual seconds from the strike to the announced deadline; 0: none"),
    ),
    events=(Kind.NODE_DRAINING, Kind.NODE_DRAIN_REJECTED, Kind.NODE_DIED, Kind.WORKER_DIED),
    move=Move("drain", Boundary.NODE_EVENT, {"deadline_s": 30.0}),
    words="node {target} is drained ({reason}, deadline in {deadline_s:g} s): no new work goes there, "
    "its running work goes on",
)
def _drain_node(inj: FaultInjector, fault: Fault) -> None:
    _drain(inj, fault.target, fault.reason, fault.deadline_s)


def _drain(inj: FaultInjector, target: str, reason: str, deadline_s: float):  # -> Node | None
    """Drain a worker node that is up and not draining yet, as the GCS does; the node, or None."""
    node = inj.node_of(target)
    if node is None or not node.alive or node.is_head or node.drain is not None:
        return None
    drains = inj.rt.drains
    drains.drain(node, reason, "", drains.wall_ms(deadline_s) if deadline_s > 0 else 0)
    return node


@kind(
    "preempt_node",
    "A spot node's preemption, notice and all: the node is drained for preemption with a deadline "
    "`deadline_s` virtual seconds away (as drain_node), and at the deadline the cloud takes it "
    '(as kill_node), whatever still runs there. The target is a node, or an attempt ("f#1/1" '
    "with step=: the node it runs on, just before its interaction `step`). Ray only announces the "
    "deadline; the taking is the cloud's, which is why this is a kind apart from drain_node.",
    params=(Param("deadline_s", float, 30.0, "virtual seconds from the notice to the node's end"),),
    events=(Kind.NODE_DRAINING, Kind.NODE_DIED, Kind.WORKER_DIED),
    # At an attempt's steps, not at kernel events: a job's steps may all fall in a few kernel
    # events, and the notice must be tried between any two of them.
    move=Move("preempt", Boundary.STEP, {"deadline_s": 30.0}),
    words="a preemption notice for {target} (deadline in {deadline_s:g} s): the cloud takes the node "
    "at the deadline",
)
def _preempt_node(inj: FaultInjector, fault: Fault) -> None:
    rt = inj.rt
    node = _drain(inj, fault.target, PREEMPTION, fault.deadline_s)
    if node is not None:  # it goes at the deadline unless it exited idle before (kill_node then does nothing)
        rt.call_at(
            rt.now() + max(0.0, fault.deadline_s),
            lambda: rt.kill_node(node, cause="preempted"),
            label="preempt-node",
        )


@kind(
    "kill_gcs",
    "The head node's GCS process dies (miniray/head).",
    events=(Kind.GCS_DIED,),
    helper=(),
    fixed_target="head",
    words="the head node's GCS dies",
)
def _kill_gcs(inj: FaultInjector, fault: Fault) -> None:
    inj.rt.gcs.kill()


@kind(
    "kill_worker",
    "Kill a worker by pid, or the lowest-pid busy task worker of a node.",
    events=(Kind.WORKER_DIED,),
    words="worker {target} is killed",
)
def _kill_worker(inj: FaultInjector, fault: Fault) -> None:
    worker = inj.worker(fault.target)
    if worker is not None:
        inj.rt.kill_worker(worker, cause="fault")


@kind(
    "kill_actor",
    "Kill an actor's process (a crash: restarts apply, unlike ray.kill(no_restart=True)).",
    events=(Kind.WORKER_DIED, Kind.ACTOR_STATE),
    words="actor {target}'s process dies",
)
def _kill_actor(inj: FaultInjector, fault: Fault) -> None:
    actor = inj.actor(fault.target)
    if actor is not None and actor.worker is not None:
        inj.rt.kill_worker(actor.worker, cause="fault")


@kind(
    "stall_actor",
    "Hang an actor's process (a gray failure): it stays alive, ALIVE and answering health checks, "
    "but the call it runs never returns and the calls after it wait behind it. A restart (after "
    "ray.kill, say) starts a process that is not hung.",
    events=(Kind.ACTOR_STALLED,),
    move=Move("stall", Boundary.ACTOR_EVENT),
    words="actor {target}'s process hangs: alive, but its calls never return",
)
def _stall_actor(inj: FaultInjector, fault: Fault) -> None:
    actor = inj.actor(fault.target)
    worker = actor.worker if actor is not None else None
    if worker is not None and worker.alive and not worker.stalled:
        worker.stalled = True
        inj.rt.emit(Kind.ACTOR_STALLED, actor=repr(actor), worker=worker.pid)


@kind(
    "crash",
    'Crash an attempt ("f#1/2") just before its interaction `step`; with at=, whatever it is doing then.',
    events=(Kind.WORKER_EXIT, Kind.WORKER_DIED),
    needs=("step",),
    helper=("target", "step"),
    timed=False,
    move=Move("crash", Boundary.STEP),
    words="the worker running {target} dies before step {step}",
)
def _crash(inj: FaultInjector, fault: Fault) -> None:  # a timed crash of the attempt, if it runs
    worker = inj.running(fault.target)
    if worker is not None:
        inj.rt.kill_worker(worker, cause="fault")


@kind(
    "lose_object",
    "Lose every copy of an object (its id, or a ref).",
    words="every copy of object {target} is lost",
)
def _lose_object(inj: FaultInjector, fault: Fault) -> None:
    objects = inj.rt.objects
    entry = objects.entries.get(fault.target) or next(
        (e for oid, e in objects.entries.items() if oid.startswith(fault.target)), None
    )
    if entry is not None:
        objects.stores.forget(entry)
        entry.inlined = False


def _declare_memory(inj: FaultInjector, fault: Fault) -> None:
    inj.rt.memory.declare(fault)


@kind(
    "use_memory",
    'Every attempt of `target` (a task name, "name#2" for one call, or an actor class) holds `size` '
    "bytes, reached over its first `ramp_s` seconds: what the memory monitor weighs. The script "
    "stays plain Ray: on real Ray the memory is whatever the code really allocates.",
    params=(
        Param("duration", float, 0.0, "seconds to reach it", helper_name="ramp_s"),
        Param("size", float, 0.0, "bytes each attempt of the target holds"),
    ),
    needs=("size",),
    helper=("target", "size"),
    events=(Kind.MEMORY_KILL,),
    timed=False,
    declare=_declare_memory,
    words="every attempt of {target} holds {size:g} bytes",
)
def _use_memory(inj: FaultInjector, fault: Fault) -> None:
    _declare_memory(inj, fault)


@kind(
    "cancel_task",
    'The caller cancels an attempt ("f#1/1"): `ray.cancel(ref, force=...)` on its task\'s ref, as its '
    "owner would, just before its interaction `step` (with at=: whatever it is doing then).",
    params=(Param("force", str, "False", "True: its worker is killed; False: it is interrupted"),),
    helper=("target",),
    events=(Kind.TASK_CANCEL, Kind.WORKER_DIED),
    move=Move("cancel", Boundary.STEP),
    words="the caller cancels {target} (ray.cancel, force={force})",
)
def _cancel_task(inj: FaultInjector, fault: Fault) -> None:
    # Through the runtime's hook, which cancel.py fills: cancel.py stands on the runtime, which
    # stands on this table (faults.py), so this table may not import it.
    cancel_spec = inj.rt.canceller
    assert cancel_spec is not None, "miniray/cancel.py registers Runtime.canceller as it loads"
    if fault.force not in ("True", "False"):
        raise ValueError(f"a 'cancel_task' fault's force= is True or False, got {fault.force!r}")
    worker = inj.running(fault.target)
    spec = worker.task if worker is not None else None
    if spec is not None and spec.kind == "task":  # an actor's call is the actor's to stop (is_canceled)
        cancel_spec(inj.rt, spec, force=fault.force == "True")
