"""The pending queue of placement groups: ranks, exponential backoff, and who goes next.

Mirrors Ray's GCS: the queue is ordered by rank, and a rank is a time ("eligible from") except
for rank 0, which fresh node-loss recovery uses to jump the line. Equal ranks keep insertion
order (Ray's btree_multimap inserts after equal keys), so two groups at rank 0 take turns.
Only the front group is ever considered: if it is not due yet, nothing behind it is either.
"""

from __future__ import annotations

import bisect
import itertools

BACKOFF_MIN_S = 0.1  # gcs_create_placement_group_retry_min_interval_ms = 100
BACKOFF_MAX_S = 1.0  # gcs_create_placement_group_retry_max_interval_ms = 1000
BACKOFF_MULTIPLIER = 1.5  # gcs_create_placement_group_retry_multiplier


class Backoff:
    """Ray's ExponentialBackoff: `next()` returns the current delay and grows it for next time."""

    __slots__ = ("current", "minimum", "multiplier", "maximum")

    def __init__(
        self,
        minimum: float = BACKOFF_MIN_S,
        multiplier: float = BACKOFF_MULTIPLIER,
        maximum: float = BACKOFF_MAX_S,
    ):
        self.current = self.minimum = minimum
        self.multiplier = multiplier
        self.maximum = maximum

    def next(self) -> float:
        delay = self.current
        self.current = min(self.current * self.multiplier, self.maximum)
        return delay

    def copy(self) -> Backoff:
        b = Backoff(self.minimum, self.multiplier, self.maximum)
        b.current = self.current
        return b


class Entry:
    __slots__ = ("rank", "seq", "group", "backoff")

    def __init__(self, rank: float, seq: int, group, backoff: Backoff):
        self.rank, self.seq, self.group, self.backoff = rank, seq, group, backoff

    def key(self) -> tuple:
        return (self.rank, self.seq)


class PendingQueue:
    def __init__(self) -> None:
        self.entries: list[Entry] = []  # sorted by (rank, seq)
        self._seq = itertools.count()

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, group, now: float, rank: float | None = None, backoff: Backoff | None = None) -> float:
        """Ray's AddToPendingQueue; returns the retry delay it recorded (seconds)."""
        rank = now if rank is None else rank
        delay = 0.0
        if backoff is None:
            backoff = Backoff()
        else:
            delay = backoff.current  # the stat Ray reports is the delay before this one grows
            rank += backoff.next()
        group.highest_retry_delay_ms = round(delay * 1000.0, 6)
        entry = Entry(rank, next(self._seq), group, backoff)
        keys = [e.key() for e in self.entries]
        self.entries.insert(bisect.bisect_right(keys, entry.key()), entry)
        return delay

    def front(self) -> Entry | None:
        return self.entries[0] if self.entries else None

    def pop(self) -> Entry:
        return self.entries.pop(0)

    def remove(self, group) -> None:
        self.entries = [e for e in self.entries if e.group is not group]

    def rank_zero(self) -> list[Entry]:
        """The entries at rank 0 (recovery at absolute priority), in turn order."""
        out = []
        for e in self.entries:
            if e.rank != 0:
                break
            out.append(e)
        return out

    def rotate_rank_zero(self, turns: int) -> None:
        """`turns` failed attempts went by: each moved the rank-0 front to the back of rank 0."""
        zero = self.rank_zero()
        k = len(zero)
        if k == 0 or turns % k == 0:
            return
        turns %= k
        rotated = zero[turns:] + zero[:turns]
        for e in rotated:
            e.seq = next(self._seq)
        self.entries = rotated + self.entries[k:]

    def groups(self) -> list:
        return [e.group for e in self.entries]
