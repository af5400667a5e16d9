"""A probe-based failure detector on the virtual clock: how silence becomes a presumed death.

Without a detector the core learns of a crash at once (kill_node fails the node's attempts), and
a paused or hung node (faults.pause_node / hang_node) only stops running; nothing notices. This
detector is what notices, and once it is on, it is also how the cluster learns of a crash: a
task whose node crashed fails (and is retried) at the detector's verdict, not at the instant of
the crash nobody saw. Every `probe_interval_s` it probes each worker node:

- a crashed node (node.alive is False) is DEAD at that probe, no threshold. This is a
  simplification, not Ray's rule: a crashed host sends nothing back, so its probes time out just
  as a hang's do, and Ray's GCS counts every failed health check toward
  health_check_failure_threshold whatever the cause (only a dead raylet on a live host refuses
  the connection, and that too is counted). Lesson 7's "where real Ray differs" says so;
- a frozen node (node.frozen_until in the future) times out. A timeout could be a blip, so it
  counts one failure: ALIVE -> SUSPECT, and DEAD only after `unhealthy_threshold` in a row;
- a node that answers resets its count (SUSPECT -> ALIVE).

Declaring a frozen node DEAD is a *presumption*: the scheduler stops placing work there and
re-runs its tasks elsewhere, but the paused bodies are not stopped. When the node resumes, the
old attempt finishes and its service effects happen (a zombie), so two attempts overlapped. Its
late result is dropped (the retry owns the task's returns now) and logged as
`liveness.zombie_finished`, so bookkeeping stays right while the duplicate effects stay visible.
Actor workers on a presumed-dead node are killed outright: actor zombies are not modelled.

Probes run on a fixed grid (origin + k * interval) and only while there is something to watch
(work running on a worker node, or a node SUSPECT), so an idle simulation still ends and a
lone sleeping body still fast-forwards when no work runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..cluster import Node
from ..events import Kind
from ..runtime import Runtime
from ..states import NodeHealthState
from ..tasks import TaskSpec

ALIVE, SUSPECT, DEAD = NodeHealthState.ALIVE, NodeHealthState.SUSPECT, NodeHealthState.DEAD


_VERDICT_KIND = {ALIVE: Kind.LIVENESS_ALIVE, SUSPECT: Kind.LIVENESS_SUSPECT, DEAD: Kind.LIVENESS_DEAD}


@dataclass(frozen=True)
class Transition:
    """One change of a node's state in the detector's eyes: when, to what, and why."""

    time: float
    node: str  # the node's name, e.g. "node:1"
    state: NodeHealthState
    cause: str


class NodeHealth:
    __slots__ = ("state", "failures", "since", "cause")

    def __init__(self, since: float):
        self.state: NodeHealthState = ALIVE
        self.failures = 0  # consecutive failed probes
        self.since = since  # virtual time of the last state change
        self.cause = ""


class Detector:
    def __init__(self, rt: Runtime, probe_interval_s: float = 5.0, unhealthy_threshold: int = 3):
        if not probe_interval_s or probe_interval_s <= 0:
            raise ValueError(
                f"liveness probe_interval_s must be > 0 (got {probe_interval_s!r}); "
                "Ray's health check period is a few seconds, e.g. 5."
            )
        if int(unhealthy_threshold) < 1:
            raise ValueError(
                f"liveness unhealthy_threshold must be >= 1 (got {unhealthy_threshold!r}); "
                "1 makes every timeout a death, 3 is the usual default."
            )
        self.rt = rt
        self.interval = float(probe_interval_s)
        self.threshold = int(unhealthy_threshold)
        self.origin = rt.now()
        self.health: dict[str, NodeHealth] = {}
        self.zombies: dict[str, str] = {}  # superseded attempt key -> node name
        self.transitions: list[Transition] = []
        # Tasks whose node crashed before the verdict: the cluster learns of it only at the verdict.
        self.held: dict[str, list[TaskSpec]] = {}  # node name -> specs, in the order they failed
        self.timer: Any = None
        # Re-arm the probe pump whenever the core asks for a scheduling pass: that is the one
        # call every submission, retry and release goes through.
        rt.dispatch_listeners.append(lambda: self.arm(queued=True))
        rt.node_failure_hold = self._hold
        rt.liveness = self
        rt.emit(Kind.LIVENESS_ENABLED, probe_interval_s=self.interval, unhealthy_threshold=self.threshold)
        self.arm(queued=True)

    # -- queries ----------------------------------------------------------------------------------
    def state(self, node: Any) -> NodeHealthState:
        """The node's state: pass a node, an entry of `ray.nodes()`, a node id or a name ("node:1")."""
        h = self.health.get(self._name(node))
        return h.state if h is not None else ALIVE

    def history(self, node: Any = None) -> list[Transition]:
        """Every state change so far, oldest first; only `node`'s if given (any form `state` takes)."""
        if node is None:
            return list(self.transitions)
        name = self._name(node)
        return [t for t in self.transitions if t.node == name]

    def _name(self, node: Any) -> str:
        if isinstance(node, Node):
            return node.name
        key = node.get("NodeID") if isinstance(node, dict) else node
        found = self.rt.node_by_id(key) if isinstance(key, str) else None
        if found is None:
            raise ValueError(
                f"{node!r:.120} is not a node of this cluster: pass a node (Cluster.add_node's return), "
                "an entry of miniray.nodes(), a node id, or a name such as 'node:1'."
            )
        return found.name

    def _health(self, node) -> NodeHealth:
        h = self.health.get(node.name)
        if h is None:
            h = self.health[node.name] = NodeHealth(self.rt.now())
        return h

    # -- the probe pump ---------------------------------------------------------------------------
    def _watching(self, queued: bool) -> bool:
        for node in self.rt.nodes:
            if node.is_head or self.state(node) == DEAD:
                continue
            if not node.alive or self.state(node) == SUSPECT:
                return True  # a verdict is still owed
            if any(w.body is not None for w in node.workers):
                return True
        # Queued work will start on some node within this instant: watch it from the next tick.
        return queued and self.rt.tasks.has_queued()

    def arm(self, queued: bool = False) -> None:
        if self.timer is not None or not self.rt.alive or not self._watching(queued):
            return
        k = math.floor((self.rt.now() - self.origin) / self.interval + 1e-9) + 1
        self.timer = self.rt.call_at(self.origin + k * self.interval, self.probe, label="liveness-probe")

    def probe(self) -> None:
        self.timer = None
        now = self.rt.now()
        for node in list(self.rt.nodes):
            if node.is_head:
                continue
            h = self._health(node)
            if h.state == DEAD:
                continue
            if not node.alive:  # the process is gone: conclusive at this probe
                self._declare_dead(node, h, "crashed")
            elif node.frozen_until > now:  # a timeout: could be a blip, so count it
                h.failures += 1
                self.rt.emit(
                    Kind.LIVENESS_PROBE_FAILED, node=node.name, failures=h.failures, threshold=self.threshold
                )
                if h.failures >= self.threshold:
                    self._declare_dead(node, h, "unresponsive")
                elif h.state == ALIVE:
                    self._set(node, h, SUSPECT, "probe timeout")
            elif h.state == SUSPECT or h.failures:
                h.failures = 0
                self._set(node, h, ALIVE, "probe answered")
        self.arm()

    def _set(self, node: Node, h: NodeHealth, state: NodeHealthState, cause: str) -> None:
        h.state, h.since, h.cause = state, self.rt.now(), cause
        self.transitions.append(Transition(self.rt.now(), node.name, state, cause))
        self.rt.emit(_VERDICT_KIND[state], node=node.name, failures=h.failures, cause=cause)

    def _declare_dead(self, node: Node, h: NodeHealth, cause: str) -> None:
        self._set(node, h, DEAD, cause)
        if node.alive:
            self.presume_dead(node)
        for spec in self.held.pop(node.name, []):  # the verdict is when the cluster learns of the crash
            self.rt.tasks.system_failure(spec, "node_died")

    def _hold(self, node: Node, spec: TaskSpec) -> bool:
        """The core's hook for a task whose node crashed: keep it until this node's verdict."""
        h = self.health.get(node.name)
        if h is not None and h.state == DEAD:
            return False  # already declared dead: nothing left to learn, fail it now
        self.held.setdefault(node.name, []).append(spec)
        return True

    # -- acting on the verdict --------------------------------------------------------------------
    def presume_dead(self, node) -> None:
        """Treat a silent node as dead for scheduling, leaving its paused bodies to run on."""
        rt = self.rt
        node.alive = False  # the scheduler's candidates skip it from now on
        rt.emit(Kind.NODE_DIED, node=node.name, id=node.node_id[:12], cause="presumed_dead")
        for worker in list(node.workers):
            body, spec = worker.body, worker.task
            if body is not None and spec is not None and worker.actor is None:
                self._zombify(worker, body, spec)
                worker.task = None  # the retry below owns the task now
                rt.tasks.system_failure(spec, "node_died")
            else:
                rt.kill_worker(worker, "node_died")
        rt.node_lost(node)

    def _zombify(self, worker, body, spec) -> None:
        key, rt = body.key, self.rt
        self.zombies[key] = worker.node.name
        rt.emit(Kind.LIVENESS_ZOMBIE, attempt=key, node=worker.node.name, worker=worker.pid)

        def done(outcome: str, detail: str = "") -> None:
            # The superseded attempt ran to the end: its effects happened, its result is dropped.
            rt.emit(
                Kind.LIVENESS_ZOMBIE_FINISHED,
                attempt=key,
                node=worker.node.name,
                outcome=outcome,
                detail=detail,
            )
            rt.kill_worker(worker, "node_died")  # its node was declared dead: the raylet exits

        body.on_return = lambda value: done("returned")
        body.on_raise = lambda error, tb: done("raised", type(error).__name__)
