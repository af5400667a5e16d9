"""The placement-group manager: Ray's GCS loop that schedules one group at a time from the queue.

Each scheduling attempt costs `placement_group_attempt_cost_s` of virtual time (default 4.5 us,
so a group retried back to back makes ~220,000 attempts per virtual second, what Ray 2.60 showed
in issue #65147). Running one kernel event per attempt would make 35 virtual seconds of a hot
loop take minutes of host time, so a hot loop is computed arithmetically instead (`Segment`):
once every group at rank 0 has failed against the current cluster state and the policy sends
failures back to rank 0, nothing can change until something outside the loop happens, and
every such happening (a node dying or joining, resources released, a group created, removed
or read) first settles the segment at that instant. Counts stay exact; events stay few.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import exceptions as exc
from ..events import Kind
from ..kernel import Timer
from ..states import ActorState, TaskState
from . import fastforward, fit, policies
from .diagnosis import RescheduleContext, diagnose
from .fastforward import Segment
from .group import Bundle, Group, formatted
from .queue import PendingQueue

if TYPE_CHECKING:  # types only: the runtime imports this module
    from ..runtime import Runtime

ATTEMPT_COST_S = 4.5e-6


class PlacementManager:
    def __init__(self, rt: Runtime):
        self.rt = rt
        cfg = rt.system_config
        self.policy = policies.resolve(cfg.get("placement_group_queue_policy"))
        self.cost = float(cfg.get("placement_group_attempt_cost_s", ATTEMPT_COST_S))
        if not self.cost > 0:
            raise ValueError(
                f"placement_group_attempt_cost_s must be a positive number of virtual "
                f"seconds (default {ATTEMPT_COST_S}), got {self.cost!r}."
            )
        self.rescheduler = cfg.get("placement_group_rescheduler")
        self.groups: dict[str, Group] = {}
        self.queue = PendingQueue()
        self.infeasible: list[Group] = []
        self.version = 0  # bumped whenever resources may have changed: attempts before and after differ
        self.total_attempts = 0
        self.in_flight = None  # the queue Entry being scheduled now
        self.seg: Segment | None = None
        self.dormant = False  # True: only backed-off groups are left and no event would wake them
        self._pass_timer: Timer | None = None
        self._tick_timer: Timer | None = None
        self._nodes_seen = len(rt.nodes)
        # Back-to-back attempts are timed as anchor + n * cost, never by adding cost n times:
        # the batched and the event-by-event paths then compute bit-identical times.
        self._anchor, self._n = 0.0, -1
        self._last_finish: float | None = None

    # -- the driver's calls --------------------------------------------------------------------
    def create(self, pg_id: str, bundles: list, strategy: str, name: str, selectors: list) -> Group:
        self.settle()
        group = Group(
            pg_id,
            name,
            [Bundle(i, b, s) for i, (b, s) in enumerate(zip(bundles, selectors))],
            strategy,
            self.rt.now(),
        )
        self.groups[pg_id] = group
        self.rt.emit(Kind.PG_CREATE, pg=group.label, strategy=strategy, bundles=len(bundles))
        self._enqueue(group)
        self._kick()
        return group

    def remove(self, group: Group) -> None:
        self.settle()
        if group.state == "REMOVED":
            return
        self._kill_users(group)
        # Ray's table still names where the bundles were after removal (read by Group.row).
        group.removed_from = {b.index: b.node.node_id for b in group.bundles if b.node is not None}
        for bundle in group.bundles:
            bundle.unreserve(group.pg_id)
        self._set_state(group, "REMOVED")
        group.scheduling_state = "REMOVED"
        self.queue.remove(group)
        if group in self.infeasible:
            self.infeasible.remove(group)
        entries, group.ready_entries = group.ready_entries, []
        for entry, _handle in entries:
            self.rt.objects.fail(
                entry,
                exc.TaskPlacementGroupRemoved(
                    f"Placement group {group.label} was removed before it was created."
                ),
            )
        self.version += 1
        self.rt.request_dispatch()  # its reservations went back to the nodes' pools
        self._kick()

    def _kill_users(self, group: Group) -> None:
        """As Ray does, removing a group kills the actors and running tasks placed in it."""

        def inside(opts) -> bool:
            pg = getattr(opts.get("scheduling_strategy"), "placement_group", None)
            return pg is not None and pg.id == group.pg_id

        for actor in list(self.rt.actors.actors.values()):
            if actor.state != ActorState.DEAD and inside(actor.opts):
                self.rt.actors.kill(actor, no_restart=True)
        for spec in list(self.rt.tasks.all):
            if (
                spec.kind == "task"
                and spec.state == TaskState.RUNNING
                and spec.worker is not None
                and inside(spec.opts)
            ):
                self.rt.kill_worker(spec.worker, "placement_group_removed")

    def ready_entry(self, group: Group, entry, handle) -> None:
        if group.state == "CREATED":
            self.rt.objects.store(entry, handle, entry.owner.node)
        elif group.state == "REMOVED":
            self.rt.objects.fail(
                entry, exc.TaskPlacementGroupRemoved(f"Placement group {group.label} was removed.")
            )
        else:
            group.ready_entries.append((entry, handle))

    def table(self) -> dict:
        self.settle()
        return {g.pg_id: g.row() for g in self.groups.values()}

    # -- what the rest of the runtime tells us ---------------------------------------------------
    def on_node_dead(self, node) -> None:
        """Bundles on the node are lost; survivors keep their reservations (Ray's OnNodeDead)."""
        if not self.groups:
            return
        self.settle()
        self.version += 1
        now = self.rt.now()
        for group in self.groups.values():
            lost = [b for b in group.bundles if b.node is node]
            if not lost or group.state == "REMOVED":
                continue
            for bundle in lost:
                bundle.node = None  # the reservation died with the node
            self.rt.emit(
                Kind.PG_BUNDLES_LOST, pg=group.label, node=node.name, bundles=[b.index for b in lost]
            )
            if group.state == "CREATED":
                self._set_state(group, "RESCHEDULING")
                group.scheduling_state = "QUEUED"
                group.recovering_since = now
                self.queue.add(group, now, rank=0)  # fresh recovery jumps the line
        self._kick()

    def on_resources_changed(self) -> None:
        """A dispatch pass ran: resources may have moved, or a node joined."""
        if not self.groups:  # no placement groups: add no events, so plain runs replay as before
            self._nodes_seen = len(self.rt.nodes)
            return
        self.settle()
        self.version += 1
        if len(self.rt.nodes) > self._nodes_seen:
            self._nodes_seen = len(self.rt.nodes)
            waiting, self.infeasible = self.infeasible, []
            for group in waiting:  # Ray's OnNodeAdd: infeasible groups get another look
                self._enqueue(group)
        if len(self.queue):
            self._kick()

    # -- the scheduling loop ---------------------------------------------------------------------
    def _enqueue(self, group: Group) -> None:
        group.scheduling_state = "QUEUED"
        group.queued_at_attempts = self.total_attempts
        self.queue.add(group, self.rt.now())

    def _kick(self) -> None:
        if self._pass_timer is None:
            self._pass_timer = self.rt.call_later(0.0, self._pass, label="pg-schedule")

    def _pass(self) -> None:
        """Ray's SchedulePendingPlacementGroups: start one attempt for the front group, if due."""
        self._pass_timer = None
        if self.in_flight is not None or self.seg is not None or not self.rt.alive:
            return
        now = self.rt.now()
        entry = self.queue.front()
        if entry is None:
            return
        if entry.rank > now:
            if fastforward.quiet(self):
                # No event left but our own Tick: drop it (wake() replays the ticks exactly),
                # so a driver waiting forever sees an empty kernel and gets Stalled.
                self.dormant = True
                if self._tick_timer is not None:
                    self._tick_timer.cancel()
                    self._tick_timer = None
            else:
                self._arm_tick(entry.rank)
            return
        if self.hot_loop():
            self.begin_hot_loop(now)
            return
        self._start(self.queue.pop(), now)

    def consulted_all(self, entries) -> bool:
        """The rescheduler (if any) already saw each recovering group fail against this state,
        so it won't be asked again until the state changes: the next failures are plain."""
        return self.rescheduler is None or all(
            e.group.consulted == self.version for e in entries if e.group.state == "RESCHEDULING"
        )

    def begin_hot_loop(self, now: float) -> None:
        self._next_slot(now)
        self.seg = Segment(self._anchor, self._n, [e.group for e in self.queue.rank_zero()])
        self.rt.emit(Kind.PG_HOT_LOOP, groups=[g.label for g in self.seg.groups])

    def _next_slot(self, now: float) -> None:
        """Number the attempt starting now: the next in a back-to-back run, or a new run."""
        if self._last_finish is not None and now == self._last_finish:
            self._n += 1
        else:
            self._anchor, self._n = now, 0

    def begin(self, entry, now: float) -> float:
        """Count an attempt starting now; returns when its result is known."""
        entry.group.scheduling_attempt += 1
        entry.group.attempt_started = now
        self.total_attempts += 1
        self._next_slot(now)
        finish = self._last_finish = self._anchor + (self._n + 1) * self.cost
        return finish

    def run_in_flight(self, entry, finish: float) -> None:
        self.in_flight = entry
        self.rt.call_at(finish, self._finish, entry, label="pg-attempt")

    def _start(self, entry, now: float) -> None:
        self.run_in_flight(entry, self.begin(entry, now))

    def _arm_tick(self, rank: float) -> None:
        when = fastforward.tick_after(rank)
        timer = self._tick_timer
        if timer is not None and not timer.cancelled and timer.time <= when and timer.time >= self.rt.now():
            return
        if timer is not None:
            timer.cancel()
        self._tick_timer = self.rt.call_at(when, self._tick, label="pg-tick")

    def _tick(self) -> None:
        self._tick_timer = None
        self._kick()

    def _finish(self, entry) -> None:
        self.in_flight = None
        self.outcome(entry, self.rt.now())
        self._kick()

    def outcome(self, entry, now: float) -> None:
        """The attempt's result: reserve every unplaced bundle, or requeue per the policy."""
        group = entry.group
        if group.state == "REMOVED" or not self.rt.alive:
            return
        plan = fit.assign(group, self.rt.nodes)
        if plan is not None:
            self._commit(group, plan)
            return
        group.failed_version = self.version
        if fit.assign(group, self.rt.nodes, use_totals=True) is None:
            group.scheduling_state = "INFEASIBLE"  # waits for a node to join (Ray's infeasible list)
            self.infeasible.append(group)
            return
        recovering = group.state == "RESCHEDULING"
        group.scheduling_state = "FAILED_TO_COMMIT_RESOURCES" if recovering else "NO_RESOURCES"
        answer = policies.decide(self.policy, group, now)
        if self.policy not in policies.BUILT_IN:  # a learner's policy: its answers are the story
            self.rt.emit(Kind.PG_REQUEUE, pg=group.label, attempt=group.scheduling_attempt, answer=answer)
        if answer == "front":
            self.queue.add(group, now, rank=0)
        else:
            self.queue.add(group, now, backoff=entry.backoff)
        if recovering and self.rescheduler is not None and group.consulted != self.version:
            group.consulted = self.version  # nothing it can see changes until the version does
            self.rescheduler(RescheduleContext(self, group))

    def _commit(self, group: Group, plan: dict) -> None:
        for index, node in sorted(plan.items()):
            group.bundles[index].reserve(node, group.pg_id)
        group.scheduling_state = "FINISHED"
        group.scheduling_latency_ms = (self.rt.now() - group.attempt_started) * 1000.0
        group.creation_latency_ms = (self.rt.now() - group.created_at) * 1000.0
        group.recovering_since = None
        self._set_state(group, "CREATED")
        entries, group.ready_entries = group.ready_entries, []
        for entry, handle in entries:
            self.rt.objects.store(entry, handle, entry.owner.node)
        self.version += 1
        self.rt.request_dispatch()  # tasks and actors waiting for these bundles can go now

    def hot_loop(self) -> bool:
        """True when the next attempts are a pure rotation of failures (see the module doc)."""
        if not getattr(self.policy, "stationary", False):
            return False
        zero = self.queue.rank_zero()
        if not zero or not self.consulted_all(zero):
            return False
        now = self.rt.now()
        return all(
            e.group.failed_version == self.version
            and e.group.state != "REMOVED"
            and policies.decide(self.policy, e.group, now) == "front"
            for e in zero
        )

    def settle(self) -> None:
        """Bring arithmetic shortcuts (a hot loop, skipped ticks) up to `now` as real state."""
        while self.seg is not None or self.dormant:
            if self.seg is not None:
                fastforward.settle_segment(self)  # leaves an attempt in flight: ends the loop
            else:
                fastforward.wake(self)  # may find a hot loop again, which the next turn settles

    # -- tasks and actors in a group --------------------------------------------------------------
    def pick(self, spec, strategy, req):
        """The node whose bundle can take the work; rewrites its demand to the bundle's names."""
        group = self.groups.get(strategy.placement_group.id)
        if group is None or group.state == "REMOVED":
            return None
        base = spec.pg_demand
        if base is None:
            base = spec.pg_demand = dict(spec.resources)
        actor = spec.actor if spec.kind == "actor_creation" else None
        if actor is not None and actor.pg_held is None:
            actor.pg_held = dict(actor.held)
        index = strategy.placement_group_bundle_index
        bundles = [group.bundles[index]] if index >= 0 else group.bundles
        need = formatted(base, group.pg_id, index)
        for bundle in bundles:
            node = bundle.node
            if node is not None and node.alive and node.drain is None and node.fits(need):
                spec.resources = need
                if actor is not None:
                    actor.held = formatted(actor.pg_held, group.pg_id, index)
                return node
        return None

    def unschedulable(self, spec, strategy):
        group = self.groups.get(strategy.placement_group.id)
        if group is not None and group.state == "REMOVED":
            cls = (
                exc.ActorPlacementGroupRemoved
                if spec.kind == "actor_creation"
                else exc.TaskPlacementGroupRemoved
            )
            return cls(f"{spec.name} was scheduled into placement group {group.label}, which was removed.")
        return None

    def diagnose_lines(self) -> list[str]:
        """Lines for the runtime's "nothing can make progress" message."""
        if not self.groups:
            return []
        return diagnose(self).lines()

    def _set_state(self, group: Group, state: str) -> None:
        if group.state != state:
            self.rt.emit(Kind.PG_STATE, pg=group.label, old=group.state, new=state)
            group.state = state
