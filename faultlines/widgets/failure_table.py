"""Lesson 12's widget: the failure table, and which decisions move when one assumption does.

The measured rows (what each fault cost on miniray) are computed once and passed in; the
sliders change the assumptions, and the table marks every decision that differs from the
baseline (2 % of nodes failing per hour). The chart draws the one continuous decision, the
checkpoint interval, against the failure rate.
"""

from __future__ import annotations

import math
from dataclasses import replace
from html import escape
from typing import Any

from ..models import failure_table as ft
from . import svgplot


def chart_for(base: ft.Assumptions, now: ft.Assumptions) -> svgplot.Chart:
    rates = [r / 100 for r in range(1, 51)]
    minutes = [60 * ft.young_interval_h(replace(now, failure_rate_per_h=r)) for r in rates]
    return svgplot.Chart(
        title="Young's checkpoint interval against the failure rate",
        xlabel="node failures per hour (%)",
        ylabel="checkpoint every (min)",
        series=[svgplot.Series(f"{now.checkpoint_s:g} s checkpoint", [100 * r for r in rates], minutes)],
        rules=rules_for(base, now),
    )


def rules_for(base: ft.Assumptions, now: ft.Assumptions) -> list[svgplot.Marker]:
    """A rule at the baseline rate and one at the learner's; svgplot writes every rule's label at
    the same height, so two rules closer than 5 points share one label."""
    lo, mine = 100 * base.failure_rate_per_h, 100 * now.failure_rate_per_h
    if mine == lo:
        return [svgplot.Marker(lo, "baseline")]
    if abs(mine - lo) < 5:
        return [svgplot.Marker(min(lo, mine), ""), svgplot.Marker(max(lo, mine), "baseline | yours")]
    return [svgplot.Marker(lo, "baseline"), svgplot.Marker(mine, "yours")]


def table_html(rows: list[Any], flipped: list[tuple[ft.Decision, ft.Decision, bool]]) -> str:
    """One row per boundary: what Ray does, what it cost on miniray, the decision before and after."""
    measured = {r.row: r for r in rows}
    head = (
        "<tr><th>boundary</th><th>Ray does</th><th>cost on miniray</th>"
        "<th>decision at baseline</th><th>decision now</th></tr>"
    )
    body = []
    for before, after, changed in flipped:
        run = measured.get(before.row)
        does = escape(run.ray_does) if run else "nothing: checkpoints are your code's job"
        cost = "-" if run is None else ("job fails" if math.isinf(run.lost_s) else f"+{run.lost_s:g} s")
        mark = "<strong>CHANGED:</strong> " if changed else ""
        body.append(
            f"<tr><th style='text-align:left'>{escape(before.row)}</th><td>{does}</td><td>{cost}</td>"
            f"<td>{escape(before.choice)}</td><td>{mark}{escape(after.choice)}<br><small>{escape(after.because)}"
            "</small></td></tr>"
        )
    return f"<table>{head}{''.join(body)}</table>"


def changed_rows(flipped: list[tuple[ft.Decision, ft.Decision, bool]]) -> list[str]:
    return [b.row for b, _, changed in flipped if changed]


class FailureTableWidget:
    def __init__(self, rows: list[Any], base: ft.Assumptions | None = None):
        import ipywidgets as w

        self.rows = rows
        self.base = base or ft.Assumptions()
        self.rate = w.FloatLogSlider(
            value=self.base.failure_rate_per_h, base=10, min=-3, max=0, step=0.1, description="failures/h"
        )
        self.delay = w.IntSlider(
            value=int(self.base.autoscaler_delay_s), min=0, max=3600, step=60, description="boot (s)"
        )
        self.nodes = w.IntSlider(value=self.base.nodes, min=1, max=256, description="nodes")
        self.checkpoint = w.IntSlider(
            value=int(self.base.checkpoint_s), min=5, max=600, step=5, description="ckpt I/O (s)"
        )
        self.summary = w.HTML()
        self.chart = w.HTML()
        self.table = w.HTML()
        for control in (self.rate, self.delay, self.nodes, self.checkpoint):
            control.observe(self.update, names="value")
        self.box = w.VBox(
            [self.rate, self.delay, self.nodes, self.checkpoint, self.summary, self.chart, self.table]
        )
        self.flipped: list[tuple[ft.Decision, ft.Decision, bool]] = []
        self.update()

    def assumptions(self) -> ft.Assumptions:
        return replace(
            self.base,
            failure_rate_per_h=float(self.rate.value),
            autoscaler_delay_s=float(self.delay.value),
            nodes=int(self.nodes.value),
            checkpoint_s=float(self.checkpoint.value),
        )

    def update(self, _change: Any = None) -> None:
        now = self.assumptions()
        self.flipped = ft.flip(self.base, **{k: getattr(now, k) for k in ft.Assumptions.__dataclass_fields__})
        moved = changed_rows(self.flipped)
        self.summary.value = escape(
            f"{len(moved)} of {len(self.flipped)} decisions changed: {', '.join(moved) or 'none'}"
        )
        self.chart.value = svgplot.render(chart_for(self.base, now))
        self.table.value = table_html(self.rows, self.flipped)
