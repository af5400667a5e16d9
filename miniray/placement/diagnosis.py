"""Why placement groups don't progress: a wait-for graph, its cycles, and queue starvation.

Two different failures can look the same from outside (a group stays PENDING), and they need
different fixes, so they are named separately:

  cycle       groups each hold capacity another needs: PG_A -> PG_B -> PG_A. Retrying never
              helps; something must change the allocation (more capacity, or a rescheduler that
              releases a victim's surviving bundles).
  starvation  a group that is due has had zero scheduling attempts while the scheduler kept
              busy with others: the queue policy never gave it a turn, whatever its resources.

An edge W -> H means: a bundle of W can only go on nodes where H's reservations sit now.
"""

from __future__ import annotations

from ..cluster import label_matches
from ..events import Kind


class Diagnosis:
    def __init__(self, edges, cycles, starved, spinning, infeasible, attempts):
        self.edges = edges  # [(waiter label, holder label, node name)]
        self.cycles = cycles  # [[label, ..., first label again]]
        self.starved = starved  # [label]: due, zero attempts, while others were tried
        self.spinning = spinning  # [label]: retried at rank 0 against an unchanged cluster
        self.infeasible = infeasible  # [label]: can never fit the alive nodes
        self.attempts = attempts  # {label: scheduling_attempt}

    def cycle_strings(self) -> list[str]:
        return [" -> ".join(c) for c in self.cycles]

    def lines(self) -> list[str]:
        out = []
        for text in self.cycle_strings():
            out.append(
                f"  - placement-group cycle {text}: each holds capacity the next needs; "
                "retrying cannot help (add capacity or release a group's surviving bundles)."
            )
        for label in self.spinning:
            out.append(
                f"  - {label} is retried at rank 0 with no progress "
                f"({self.attempts[label]} scheduling attempts so far): activity, not progress."
            )
        for label in self.starved:
            out.append(
                f"  - {label} is due but has had 0 scheduling attempts: queue starvation "
                "(try _system_config={'placement_group_queue_policy': 'backoff'})."
            )
        for label in self.infeasible:
            out.append(f"  - {label} can never fit the alive nodes (INFEASIBLE): add a node.")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines()) or "no placement group is stuck"

    __repr__ = __str__


def wait_for_graph(manager) -> list[tuple]:
    """Edges (waiter, holder, node) between groups, in creation order."""
    edges = []
    groups = list(manager.groups.values())
    for waiter in groups:
        if waiter.state not in ("PENDING", "RESCHEDULING"):
            continue
        for bundle in waiter.unplaced():
            hosts = [
                n
                for n in manager.rt.nodes
                if n.alive and label_matches(n.labels, bundle.selector) and n.feasible(bundle.resources)
            ]
            if any(n.fits(bundle.resources) for n in hosts):
                continue  # room exists now: this bundle waits for a turn, not for a holder
            for node in hosts:
                for holder in groups:
                    if holder is waiter or holder.state == "REMOVED":
                        continue
                    if any(
                        b.node is node and set(b.resources) & set(bundle.resources) for b in holder.bundles
                    ):
                        edge = (waiter, holder, node)
                        if edge not in edges:
                            edges.append(edge)
    return edges


def find_cycles(edges, groups: list) -> list[list]:
    """Elementary cycles, each reported once, starting from its earliest-created group."""
    succ: dict = {}
    for w, h, _ in edges:
        succ.setdefault(w, [])
        if h not in succ[w]:
            succ[w].append(h)
    rank = {g: i for i, g in enumerate(groups)}  # `groups` is in creation order
    cycles = []

    def walk(start, node, path):
        for nxt in succ.get(node, []):
            if nxt is start:
                cycles.append(path + [start])
            elif nxt not in path and rank[nxt] > rank[start]:
                walk(start, nxt, path + [nxt])

    for start in sorted(rank, key=lambda n: rank[n]):
        walk(start, start, [start])
    return cycles


def diagnose(manager) -> Diagnosis:
    manager.settle()
    now = manager.rt.now()
    edges = wait_for_graph(manager)
    cycles = [[g.label for g in c] for c in find_cycles(edges, list(manager.groups.values()))]
    queued = len(manager.queue)
    starved = [
        e.group.label
        for e in manager.queue.entries
        if e.rank <= now
        and e.group.scheduling_attempt == 0
        and manager.total_attempts - e.group.queued_at_attempts > queued
    ]
    loop = manager.queue.rank_zero() + (
        [manager.in_flight] if manager.in_flight is not None and manager.in_flight.rank == 0 else []
    )
    spinning = [
        g.label
        for g in manager.groups.values()
        if any(e.group is g for e in loop) and g.failed_version == manager.version
    ]
    infeasible = [g.label for g in manager.infeasible]
    attempts = {g.label: g.scheduling_attempt for g in manager.groups.values()}
    return Diagnosis(
        [(w.label, h.label, n.name) for w, h, n in edges], cycles, starved, spinning, infeasible, attempts
    )


class RescheduleContext:
    """What a rescheduler hook sees after a recovery attempt fails, and the one thing it may do.

    Set `_system_config={"placement_group_rescheduler": fn}`; `fn(ctx)` is called when a
    RESCHEDULING group's attempt fails, once per change of the cluster's state. None ships.
    """

    def __init__(self, manager, group):
        self._manager = manager
        self.group = group  # the recovering group whose attempt just failed

    @property
    def now(self) -> float:
        return self._manager.rt.now()

    @property
    def groups(self) -> list:
        return list(self._manager.groups.values())

    def diagnosis(self) -> Diagnosis:
        return diagnose(self._manager)

    def by_label(self, label: str):
        for g in self._manager.groups.values():
            if g.label == label:
                return g
        raise KeyError(f"No placement group named {label!r}; known: {[g.label for g in self.groups]}")

    def release_surviving(self, victim) -> None:
        """Give up `victim`'s surviving reservations so another group can complete; the victim
        then recovers all its bundles from scratch (it stays RESCHEDULING, queued at rank 0)."""
        m = self._manager
        victim = self.by_label(victim) if isinstance(victim, str) else victim
        released = [b.index for b in victim.placed()]
        for bundle in victim.placed():
            bundle.unreserve(victim.pg_id)
        m.rt.emit(Kind.PG_VICTIM, pg=victim.label, released=released)
        if victim.state == "CREATED":
            m._set_state(victim, "RESCHEDULING")
            victim.recovering_since = m.rt.now()
            m.queue.add(victim, m.rt.now(), rank=0)
        m.version += 1
        m.rt.request_dispatch()
