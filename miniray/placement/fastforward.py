"""Skipping the scheduler's boring stretches without changing a single count.

Two stretches repeat exactly while nothing outside the placement manager happens:

  hot loop   groups at rank 0 fail back to rank 0 (Ray 2.60): ~220,000 attempts per virtual
             second. A `Segment` records when it started; counts come from arithmetic.
  dormancy   only backed-off groups remain and no other event is scheduled: the GCS would wake
             each second (its Tick), fail, and back off again. Not scheduling those ticks lets a
             driver that waits forever get Stalled with a diagnosis instead of spinning until
             the event budget runs out; `wake` replays the skipped ticks when someone looks.

Every way in (a node dying or joining, a dispatch pass, a group created, removed or read) calls
`manager.settle()` first, so the shortcut always ends before anything could change an outcome.
Times are computed as anchor + n * cost, exactly as the event-by-event path computes them,
which is what the tests compare against.
"""

from __future__ import annotations

import math

TICK_S = 1.0  # Ray's GcsPlacementGroupManager::Tick re-runs the queue every second


class Segment:
    """A hot loop in progress: `groups` take turns; its attempt j ends at anchor + (n0 + j + 1) * cost."""

    __slots__ = ("anchor", "n0", "groups")

    def __init__(self, anchor: float, n0: int, groups: list):
        self.anchor, self.n0, self.groups = anchor, n0, groups


def tick_after(rank: float) -> float:
    """The first Tick at or after `rank` (ticks at whole virtual seconds)."""
    when = math.ceil(rank / TICK_S - 1e-9) * TICK_S
    return when + TICK_S if when < rank else when


def settle_segment(m) -> None:
    """Turn a hot loop into state at `now`; the attempt in flight becomes a real event."""
    seg, m.seg = m.seg, None
    k, now, cost, anchor, n0 = len(seg.groups), m.rt.now(), m.cost, seg.anchor, seg.n0
    # Attempts that ended strictly before now failed; the one ending at or after now is in
    # flight. Same float expression as the manager's begin(), so ties fall the same way.
    done = max(0, int((now - anchor) / cost) - n0 - 1)
    while anchor + (n0 + done + 1) * cost < now:
        done += 1
    while done > 0 and anchor + (n0 + done) * cost >= now:
        done -= 1
    started = done + 1
    for pos, group in enumerate(seg.groups):
        group.scheduling_attempt += (started - pos + k - 1) // k
    m.total_attempts += started
    m.queue.rotate_rank_zero(done)
    m._anchor, m._n = anchor, n0 + done
    m._last_finish = anchor + (n0 + done + 1) * cost
    entry = m.queue.pop()
    entry.group.attempt_started = anchor + (n0 + done) * cost
    m.run_in_flight(entry, m._last_finish)


def quiet(m) -> bool:
    """Nothing but the manager's own tick is scheduled, and every queued group failed against
    the cluster as it is: the future is the same retry forever until something outside acts."""
    if not m.consulted_all(m.queue.entries):
        return False
    if any(e.group.failed_version != m.version for e in m.queue.entries):
        return False
    kernel = m.rt._kernel
    if kernel.peek() is None:
        return True
    return all(t.cancelled or t is m._tick_timer for t in kernel.pending())


def wake(m) -> None:
    """Replay the ticks skipped while dormant, up to (not including) `now`, as the events would
    have run them; then schedule the next tick or finish for real."""
    m.dormant = False
    if m._tick_timer is not None:
        m._tick_timer.cancel()
        m._tick_timer = None
    now = m.rt.now()
    while True:
        front = m.queue.front()
        if front is None:
            return
        at = tick_after(front.rank)
        if at >= now:  # the tick is still ahead: from here on the real events take over
            m._arm_tick(front.rank)
            return
        while front is not None and front.rank <= at:  # one tick's chain of attempts
            m.queue.pop()
            finish = m.begin(front, at)
            if finish >= now:
                m.run_in_flight(front, finish)
                return
            m.outcome(front, finish)
            at = finish
            if m.hot_loop():  # a failure went back to rank 0 under a stationary policy
                m.begin_hot_loop(at)
                return
            front = m.queue.front()
