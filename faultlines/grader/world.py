"""The context a scenario runs in: the cluster it builds, the services, the second client.

The grader owns cluster creation so it can note, for every log record, the kernel event it
happened at (the boundaries where a node loss is worth trying), and owns the services so a
"client after_call=N" move can start a second client right after the N-th service call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from faultlines.reading import FINISHED, RAISED, Broken, Reading
from faultlines.reading.reading import Running
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.liveness import Services

from .schedule import ClientMove

CLIENT_WINDOW_S = 5.0  # how long the attempt that made call N waits for the second client


class GradedServices(Services):
    """miniray's simulated services, with a hook after each service call (reads included: a
    check-then-act races between its read and its write).

    A body runs without interruption until it blocks, so "a second client between two calls"
    needs the first one to stop there: the attempt that made call N sleeps CLIENT_WINDOW_S
    (journaled, so a replay of the body passes the same point the same way) before its next call.
    """

    def __init__(self, on_call: Callable[[int], bool]) -> None:
        super().__init__()
        self._on_call = on_call
        self._calls = 0
        self._holds: dict[str, int] = {}  # attempt -> the journal position where it waits

    def call(self, service, op, key, fn, token=None, record=True):
        attempt = sim.current_attempt()
        if attempt is not None and self._holds.get(attempt.key) == attempt.position:
            time.sleep(CLIENT_WINDOW_S)  # inside a body: a journaled sleep of virtual time

        def counted() -> Any:  # runs only when the call is really made, not on a journal replay
            try:
                return fn()
            finally:
                self._calls += 1
                now = sim.current_attempt()
                if self._on_call(self._calls) and now is not None:
                    self._holds[now.key] = now.position + 1  # right after this call's journal entry

        return super().call(service, op, key, counted, token, record)


class Ctx:
    def __init__(self, sub: Any, clients: list[ClientMove], second_client: Callable | None, params: dict):
        self.sub = sub
        self.params = params
        self.clients = clients
        self.faults: list[Any] = []  # the schedule's miniray faults (set by the runner)
        self._second_client = second_client
        self.client_refs: list[Any] = []
        self.client_errors: list[str] = []
        self.event_marks: list[tuple[int, tuple[str, ...]]] = []  # (kernel event, nodes running work)
        self._running = Running()  # the attempts running, and where, from the log
        self._reading: Reading | None = None
        self.nodes: list[str] = []
        self.services = GradedServices(self._call_done)
        self._cluster: Cluster | None = None
        self.records: list[sim.Record] = []  # the run's log, as it happens (the scenario's cluster)
        self.listeners: list[Callable[[sim.Record], None]] = []  # also hear each record (the debugger)
        self.extra: dict[str, Any] = {}
        # Each attempt's calls to the cluster, (op, site) in order, once the run is over (evidence
        # reads them: whether a task asked Ray something at all, how often).
        self.journals: dict[str, list[tuple[str, str]]] = {}
        self._pending_start = any(c.after_call == 0 for c in clients)
        self.streams: dict[str, Callable[[sim.Record, Ctx], Any]] = {}  # stream invariants still watching
        self.streamed: dict[str, Broken] = {}  # each broken stream invariant, at the record it broke

    # -- for scenarios ---------------------------------------------------------------------------
    def cluster(
        self,
        workers: int = 2,
        cpus_per_worker: float = 1,
        head_cpus: float = 0,
        progress_bound_s: float = 600.0,
    ) -> Cluster:
        """A head that runs only the driver (by default) and `workers` worker nodes, connected.

        `progress_bound_s`: virtual seconds within which the scenario's goal must be reached; a
        run still going past it is reported as starvation."""
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": head_cpus})
        for _ in range(workers):
            cluster.add_node(num_cpus=cpus_per_worker)
        cluster.connect()
        sim.set_budget(max_virtual_seconds=progress_bound_s)
        self._cluster = cluster
        self.nodes = [n.name for n in cluster.worker_nodes]
        # The records logged before this listener (the nodes joining) carry no attempt: only the
        # ones from here on matter to the marks, and every one of them is kept for the invariants.
        sim.on_record(self._mark)
        for listener in self.listeners:
            sim.on_record(listener)
        if self._pending_start:  # "after call 0": on the first event, once the scenario has set up
            self._pending_start = False
            sim.call_later(0.0, self._launch)
        return cluster

    @property
    def reading(self) -> Reading:
        """The run so far, as the scenario's cluster logged it (faultlines/reading): ask it
        questions (`ctx.reading.attempts("fetch")`) rather than comparing record kinds. One
        reading of the growing list: what it works out it works out again only for new records."""
        if self._reading is None:
            self._reading = Reading(self.records)
        return self._reading

    def finished_attempts(self) -> set[str]:
        """Attempts that ran to their end (returned or raised), as opposed to being killed."""
        return {a.key for a in self.reading.attempts() if a.how in (FINISHED, RAISED)}

    def wait_clients(self) -> None:
        """Let every second client that started finish; their failures are noted, not raised."""
        import miniray

        for ref in self.client_refs:
            try:
                miniray.get(ref)
            except Exception as e:  # a client failing is an outcome for the invariants to judge
                self.client_errors.append(f"{type(e).__name__}: {e}".splitlines()[0])

    # -- grader side -------------------------------------------------------------------------------
    def _mark(self, record: sim.Record) -> None:
        self.records.append(record)
        busy = self._running.see(record)
        if self.streams:
            self._watch(record)
        steps = record.step
        if self.event_marks and self.event_marks[-1][0] == steps:
            self.event_marks[-1] = (steps, busy)
        else:
            self.event_marks.append((steps, busy))

    def _watch(self, record: sim.Record) -> None:
        """Each stream invariant hears the record; the first it breaks at is noted, and it stops."""
        for name, invariant in list(self.streams.items()):
            result = invariant(record, self)
            if result:
                broken = result if isinstance(result, Broken) else Broken(str(result))
                self.streamed[name] = broken if broken.at is not None else replace(broken, at=record.index)
                del self.streams[name]

    def _call_done(self, count: int) -> bool:
        if any(c.after_call == count for c in self.clients) and self._cluster is not None:
            # Start it from the event loop, not from inside the attempt that made the effect.
            sim.call_later(0.0, self._launch)
            return True
        return False

    def _launch(self) -> None:
        if self._second_client is None:
            return
        result = self._second_client(self.sub, self)
        if result is not None:
            self.client_refs.append(result)

    def boundaries_into(self, b: Any, run: sim.Run) -> None:
        b.points = replace(run.points, nodes=list(self.nodes), marks=list(self.event_marks))
        b.calls = self.services._calls
