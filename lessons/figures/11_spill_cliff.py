"""Lesson 11's figure: the spill cliff. Time for 50 readers against how full the store is.

Seed 001's case: a 30 GB object store, 2 GB blocks already live, one more 4 GB block lands, then
50 readers each read the oldest block from 4 CPUs. The lines are faultlines.stories.spill.predict
(the lesson's model); the points are the same workload run on miniray (spill.measure), for the
seed's 500 MB/s disk and for a 4x faster one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories import spill

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SEED = spill.SpillInputs()  # the page's worked case: 28 GB live in a 30 GB store
FAST_DISK_MB_S = 2000.0  # the page's "try this" disk, as lessons/numbers/11_dashboard.py


@dataclass(frozen=True)
class Cliff:
    seed: spill.SpillInputs
    disks: dict[float, tuple[tuple[spill.SpillResult, spill.SpillResult], ...]]  # (predicted, measured)


def data() -> Cliff:
    disks = {}
    for disk in (SEED.disk_mb_s, FAST_DISK_MB_S):
        inputs = replace(SEED, disk_mb_s=disk)
        disks[disk] = tuple((p, spill.measure(p.inputs)) for p in spill.sweep(inputs))
    return Cliff(SEED, disks)


def _last_fit(pairs: tuple[tuple[spill.SpillResult, spill.SpillResult], ...]) -> float:
    return max(p.inputs.live_gb for p, _ in pairs if p.spilled_gb == 0)


def describe(c: Cliff) -> tuple[str, str]:
    seed_pairs = c.disks[c.seed.disk_mb_s]
    at_seed = next(m for p, m in seed_pairs if p.inputs.live_gb == c.seed.live_gb)
    fast = next(m for p, m in c.disks[FAST_DISK_MB_S] if p.inputs.live_gb == c.seed.live_gb)
    fits = _last_fit(seed_pairs)
    pairs = [pair for runs in c.disks.values() for pair in runs]
    agree = sum(abs(p.disk_seconds - m.disk_seconds) < 1e-6 for p, m in pairs)
    alt = (
        f"Step chart of the seconds of disk reads {c.seed.readers} readers need, the least time one "
        f"disk can serve them in, against the GB already live in "
        f"a {c.seed.store_gb:g} GB store before one more {c.seed.extra_gb:g} GB block lands. Up to "
        f"{fits:g} GB it is 0 s for both disks: everything stays in memory. Past that the oldest "
        f"block spills and the readers need {at_seed.disk_seconds:g} s with a "
        f"{c.seed.disk_mb_s:g} MB/s disk and {fast.disk_seconds:g} s with a {FAST_DISK_MB_S:g} MB/s "
        f"one. {agree} of miniray's {len(pairs)} measured points sit on the model's lines."
    )
    caption = (
        f"Nothing degrades gradually: at {fits:g} GB live the new block fits, at "
        f"{c.seed.live_gb:g} GB (the page's case) one {c.seed.block_gb:g} GB block goes to disk "
        f"and every read of it costs {at_seed.read_s:g} s, so {c.seed.readers} readers need "
        f"{at_seed.disk_seconds:g} s of the one disk, whatever the CPUs. A faster disk lowers the cliff; only "
        f"headroom in the store removes it."
    )
    return alt, caption


def draw(c: Cliff, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.5))
    ax = fig.subplots()
    for (disk, pairs), colour, ls, marker in zip(
        c.disks.items(), (ink.red, ink.blue), ("-", "--"), ("o", "s")
    ):
        xs = [p.inputs.live_gb for p, _ in pairs]
        ax.step(
            xs,
            [p.disk_seconds for p, _ in pairs],
            where="mid",
            color=colour,
            ls=ls,
            lw=1.8,
            label=f"model, {disk:g} MB/s disk",
        )
        ax.plot(
            xs,
            [m.disk_seconds for _, m in pairs],
            marker,
            color=colour,
            ms=5,
            mfc="none",
            label=f"miniray, {disk:g} MB/s",
        )
    ax.axvline(c.seed.live_gb, color=ink.muted, ls=":", lw=1)
    ax.text(
        c.seed.live_gb - 0.4, ax.get_ylim()[1] * 0.5, "page's case", color=ink.muted, ha="right", fontsize=9
    )
    ax.set_xlabel(f"GB live before a {c.seed.extra_gb:g} GB block lands ({c.seed.store_gb:g} GB store)")
    ax.set_ylabel(f"disk seconds, {c.seed.readers} readers")
    ax.grid(True, lw=0.6)
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig
