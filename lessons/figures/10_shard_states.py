"""Lesson 10's figure: the faulty shard's state through a crash, a hang and a blip.

Each row is one run of the course's fleet controller (faultlines.models.fleet_health.observe with
faultlines.fleet.Fleet, seed 002's fleet, as the page's numbers and the widget run it): the same
shard, the same fault time, the page's probe interval and threshold. The left panel shows the
first seconds, where detection happens; the right one the whole way back to HEALTHY.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.fleet import Fleet
from faultlines.models import fleet_health as fh

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FAULT_AT = 12.0  # as lessons/numbers/10_fleet_health.py
FAULTS = ("crash", "hang", "blip")
ZOOM_S = 40.0  # the left panel
HORIZON_S = 450.0  # the right panel: past the last return to HEALTHY
HATCH = {"HEALTHY": None, "SUSPECT": "..", "DEAD": "xx", "RESTARTING": "//", "STALE": "\\\\"}


@dataclass(frozen=True)
class Runs:
    by_fault: dict[str, fh.FleetRun]


def data() -> Runs:
    return Runs({fault: fh.observe(Fleet, fault=fault, fault_at=FAULT_AT) for fault in FAULTS})


def _spans(run: fh.FleetRun) -> list[fh.Span]:
    return run.segments[2]


def _when(value: float | None) -> str:
    return "never" if value is None else f"{value:g} s"


def describe(r: Runs) -> tuple[str, str]:
    rows = "; ".join(
        f"{fault}: "
        + ", ".join(f"{s.label} {s.start:g}–{s.end:g} s" for s in _spans(run) if s.end > s.start)
        + (" (never declared DEAD)" if run.dead_at is None else f" (declared DEAD at {run.dead_at:g} s)")
        for fault, run in r.by_fault.items()
    )
    alt = (
        f"State timelines of one shard, one row per fault injected at {FAULT_AT:g} s, in two "
        f"panels: the first {ZOOM_S:g} s, and the run to {HORIZON_S:g} s. {rows}."
    )
    crash, hang, blip = (r.by_fault[f] for f in FAULTS)
    restart = next(s.end - s.start for s in _spans(crash) if s.label == "RESTARTING")
    caption = (
        f"Detection differs, recovery does not: the crash is declared DEAD "
        f"{crash.notice_s:g} s after the fault and the hang {hang.notice_s:g} s after it, yet both "
        f"serve again only at {_when(crash.healthy_at)} (restart, then STALE until the next "
        f"refit). The blip comes back by itself after {blip.out_of_service_s:g} s, never "
        f"declared dead: the threshold is what spares it a {restart:g} s restart."
    )
    return alt, caption


def draw(r: Runs, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    colour = {
        "HEALTHY": ink.green,
        "SUSPECT": ink.ochre,
        "DEAD": ink.red,
        "RESTARTING": ink.purple,
        "STALE": ink.blue,
    }
    fig = Figure(figsize=(5.0, 2.9))
    left, right = fig.subplots(1, 2, sharey=True, width_ratios=[2, 3])
    for ax, (lo, hi) in ((left, (0.0, ZOOM_S)), (right, (0.0, HORIZON_S))):
        for y, run in enumerate(reversed(list(r.by_fault.values()))):
            for span in _spans(run):
                start, end = max(span.start, lo), min(span.end, hi)
                if span.label == "DEAD":  # an instant: a mark, not a bar
                    if lo <= span.start <= hi:
                        ax.plot([span.start], [y], "X", color=ink.red, ms=9, mec=ink.background, zorder=3)
                    continue
                if end <= start:
                    continue
                ax.broken_barh(
                    [(start, end - start)],
                    (y - 0.32, 0.64),
                    facecolors=colour[span.label],
                    edgecolors=ink.background,
                    hatch=HATCH[span.label],
                    lw=0.8,
                )
        ax.axvline(FAULT_AT, color=ink.text, ls=":", lw=1)
        ax.set_xlim(lo, hi)
        ax.set_xlabel("seconds")
        ax.grid(True, axis="x", lw=0.6)
        ax.set_axisbelow(True)
    left.set_yticks(range(len(r.by_fault)), list(reversed(list(r.by_fault))))
    left.set_ylim(-0.6, len(r.by_fault) - 0.4)
    left.set_title(f"first {ZOOM_S:g} s", fontsize=9.5)
    right.set_title("until it serves again", fontsize=9.5)
    right.tick_params(left=False)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Patch(facecolor=colour[s], hatch=HATCH[s], edgecolor=ink.background, label=s)
        for s in colour
        if s != "DEAD"
    ]
    handles.append(Line2D([], [], marker="X", ls="", color=ink.red, mec=ink.background, ms=9, label="DEAD"))
    fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=9, handlelength=1.4)
    fig.tight_layout(rect=(0, 0.17, 1, 1))
    return fig
