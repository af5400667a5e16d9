"""Lesson 7's figure: how long a crash and a hang take to be declared dead, by probe threshold.

The bands come from faultlines.stories.detection (probe every 5 s; a crash refuses the next
probe, a hang lets `threshold` probes time out). The two points are the page's own miniray runs
at the page's threshold, from the lesson's numbers module: a node killed at 7 s and a node hung
at 2 s, each measured from the fault to miniray's `liveness.dead` event.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.reading import Kind
from faultlines.stories.detection import Detection, detection, run_fault

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NUMBERS = Path(__file__).resolve().parents[1] / "numbers/07_liveness.py"
THRESHOLDS = tuple(range(1, 9))


@dataclass(frozen=True)
class Detections:
    interval_s: float
    page_threshold: int
    models: tuple[Detection, ...]  # one per threshold in THRESHOLDS
    crash_measured_s: float  # the page's miniray run: fault to DEAD
    hang_measured_s: float


def data() -> Detections:
    page = runpy.run_path(str(NUMBERS))
    interval, threshold = page["INTERVAL_S"], page["THRESHOLD"]
    crash_at, hang_at = page["CRASH_AT"], page["HANG_AT"]  # the faults the page's runs inject
    crash = run_fault("crash", at=crash_at, interval_s=interval, threshold=threshold)
    hang = run_fault("hang", at=hang_at, interval_s=interval, threshold=threshold)
    return Detections(
        interval_s=float(interval),
        page_threshold=threshold,
        models=tuple(detection(interval, t) for t in THRESHOLDS),
        crash_measured_s=crash.first(Kind.LIVENESS_DEAD) - crash_at,
        hang_measured_s=hang.first(Kind.LIVENESS_DEAD) - hang_at,
    )


def describe(d: Detections) -> tuple[str, str]:
    page = d.models[d.page_threshold - 1]
    last = d.models[-1]
    alt = (
        f"Chart of seconds from the fault to the DEAD verdict against the failure threshold, 1 to "
        f"{THRESHOLDS[-1]} probes, with a probe every {d.interval_s:g} s. A crash is noticed within "
        f"0 to {page.crash_worst_s:g} s at every threshold. A hang takes from (threshold − 1) to "
        f"threshold probe intervals: {page.hang_best_s:g} to {page.hang_worst_s:g} s at "
        f"threshold {d.page_threshold}, {last.hang_best_s:g} to {last.hang_worst_s:g} s at "
        f"{last.threshold}. Marked at threshold {d.page_threshold}, the page's miniray runs: the "
        f"crash declared dead {d.crash_measured_s:g} s after it, the hang {d.hang_measured_s:g} s "
        f"after it."
    )
    caption = (
        f"A dead process refuses the next probe; a hung one has to time out {d.page_threshold} "
        f"times. Each step up in threshold protects a slow node from a false verdict and costs every "
        f"real hang one more {d.interval_s:g} s interval; crash detection does not move. The "
        f"points are miniray's verdicts in the page's two runs."
    )
    return alt, caption


def draw(d: Detections, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.6))
    ax = fig.subplots()
    ts = [m.threshold for m in d.models]
    ax.fill_between(
        ts,
        [m.hang_best_s for m in d.models],
        [m.hang_worst_s for m in d.models],
        color=ink.red,
        alpha=0.25,
        lw=0,
    )
    ax.plot(ts, [m.hang_mean_s for m in d.models], "--", color=ink.red, lw=1.8, label="hang: range and mean")
    ax.fill_between(ts, 0, [m.crash_worst_s for m in d.models], color=ink.blue, alpha=0.25, lw=0)
    ax.plot(
        ts, [m.crash_mean_s for m in d.models], "-", color=ink.blue, lw=1.8, label="crash: range and mean"
    )
    ax.plot([d.page_threshold], [d.hang_measured_s], "D", color=ink.red, ms=7, zorder=3)
    ax.plot([d.page_threshold], [d.crash_measured_s], "o", color=ink.blue, ms=7, zorder=3)
    ax.annotate(
        f"page's hang run: {d.hang_measured_s:g} s",
        (d.page_threshold, d.hang_measured_s),
        xytext=(14, 8),
        textcoords="offset points",
        color=ink.red,
        bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1},
    )
    ax.annotate(
        f"page's crash run: {d.crash_measured_s:g} s",
        (d.page_threshold, d.crash_measured_s),
        xytext=(14, 6),
        textcoords="offset points",
        color=ink.blue,
        bbox={"facecolor": ink.background, "edgecolor": "none", "pad": 1},
    )
    ax.set_xticks(ts)
    ax.set_xlim(ts[0] - 0.2, ts[-1] + 0.2)
    ax.set_ylim(0, d.models[-1].hang_worst_s * 1.05)
    ax.set_xlabel("failure threshold (missed probes)")
    ax.set_ylabel("seconds from fault to DEAD")
    ax.set_title(f"one probe every {d.interval_s:g} s")
    ax.grid(True, lw=0.6)
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig
