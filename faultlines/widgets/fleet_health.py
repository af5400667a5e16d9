"""Lesson 10's widget: a timeline of shard states, with the probe interval and threshold as knobs.

The learner picks a fault (crash, hang, or an 8 s blip), when it strikes, the probe interval,
the unhealthy threshold and the promotion rule; the widget reruns the fleet controller and draws
every shard's ledger state plus the refits, with the numbers beside it as a table. The fleet
class is passed in (see faultlines/models/fleet_health.py for why).
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..models import fleet_health as model
from . import statechart
from .svgplot import Marker

# The weights row reuses the ledger's meaning: current weights read like HEALTHY, a checkpoint
# like a warning, no engine at all like RESTARTING.
WEIGHT_COLOURS = {
    "CURRENT": statechart.STATE_COLOURS["HEALTHY"],
    "CHECKPOINT": statechart.STATE_COLOURS["SUSPECT"],
    "PARTIAL": statechart.STATE_COLOURS["SUSPECT"],
    "NONE": "#cccccc",
}


def strip_for(run: model.FleetRun, horizon: float = model.HORIZON) -> statechart.Strip:
    """The run as a state strip: one row per shard, one row of weight transfers."""
    rows = [
        statechart.Row(f"shard {i}", [statechart.Band(s.start, s.end, s.label) for s in spans])
        for i, spans in sorted(run.segments.items())
    ]
    rows.append(statechart.Row("2 weights", [statechart.Band(s.start, s.end, s.label) for s in run.weights]))
    transfers = []
    for span in run.refits:
        outcome = span.label.split(" ", 1)[1]
        transfers.append(
            statechart.Band(span.start, span.end, "REFIT" if outcome == "done" else outcome.upper())
        )
    rows.append(statechart.Row("refits", transfers))
    rules = [Marker(run.fault_at, run.fault)]
    if run.dead_at is not None:
        rules.append(Marker(run.dead_at, "DEAD"))
    return statechart.Strip(
        title=f"{run.fault} of shard 2: probe every {run.probe_interval_s:g} s, threshold {run.unhealthy_threshold}",
        xlabel="virtual time (s)",
        rows=rows,
        rules=rules,
        colours=dict(WEIGHT_COLOURS, REFIT="#999999", ABORT=statechart.STATE_COLOURS["DEAD"]),
        x_range=(0.0, horizon),
    )


def table_html(run: model.FleetRun) -> str:
    cells = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{escape(k)}</th><td>{escape(v)}</td></tr>"
        for k, v in model.summary_rows(run)
    )
    return f"<table>{cells}</table>"


class FleetHealthWidget:
    """The controls, the strip and the table; `.box` is what a notebook cell shows."""

    def __init__(self, fleet_cls: Any, **start: Any):
        import ipywidgets as w  # imported here so the model and chart work without ipywidgets

        self.fleet_cls = fleet_cls
        self.probe = w.IntSlider(
            value=start.get("probe_interval_s", 5), min=1, max=30, description="probe (s)"
        )
        self.threshold = w.IntSlider(
            value=start.get("unhealthy_threshold", 3), min=1, max=6, description="threshold"
        )
        self.fault = w.ToggleButtons(
            options=list(model.FAULTS), value=start.get("fault", "crash"), description="fault"
        )
        self.fault_at = w.IntSlider(
            # Seed 002's crash at 28 s: the one where the promotion rule decides what serves.
            value=int(start.get("fault_at", 28)),
            min=0,
            max=520,
            description="fault at (s)",
        )
        self.promote = w.ToggleButtons(
            options=[("shipped: all STALE", "all_stale"), ("fix: only refitted", "refitted")],
            value=start.get("promote", "all_stale"),
            description="promote",
        )
        self.chart = w.HTML()
        self.table = w.HTML()
        for control in (self.probe, self.threshold, self.fault, self.fault_at, self.promote):
            control.observe(self.update, names="value")
        self.box = w.VBox(
            [self.fault, self.fault_at, self.probe, self.threshold, self.promote, self.chart, self.table]
        )
        self.run: model.FleetRun | None = None
        self.update()

    def update(self, _change: Any = None) -> None:
        self.run = model.observe(
            self.fleet_cls,
            fault=self.fault.value,
            fault_at=float(self.fault_at.value),
            probe_interval_s=float(self.probe.value),
            unhealthy_threshold=int(self.threshold.value),
            promote=self.promote.value,
        )
        self.chart.value = statechart.render(strip_for(self.run))
        self.table.value = table_html(self.run)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
