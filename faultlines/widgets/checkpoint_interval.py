"""Lesson 6's widget: the checkpoint-interval U-curve with three knobs and a "run it" button.

Drag the interval, the failure rate or the checkpoint cost and the curves move: checkpoint I/O,
the exact expected loss to failures, their sum, and the first-order (Young) total for contrast.
The button runs the job in miniray under random failures at a few intervals and puts the
averages on the same plot, so the simulation can be seen landing on the curve. Everything the
plot shows is also in the text below it.

The pure parts (``Knobs``, ``chart``, ``summary_html``) take numbers and return a chart or HTML,
so tests and the lesson's numbers use them without ipywidgets; ``CheckpointLab`` wires them to
controls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from faultlines.models import checkpoint_interval as model
from faultlines.stories.checkpoint_sim import Point, measure_curve
from faultlines.widgets import svgplot

HOUR_S = 3600.0


@dataclass(frozen=True)
class Knobs:
    """The learner's inputs, in the units the controls show."""

    interval_h: float = 1.0
    rate_per_h: float = 0.02
    cost_s: float = 30.0
    work_h: float = 10.0

    @property
    def cost_h(self) -> float:
        return self.cost_s / HOUR_S


def _grid(knobs: Knobs, points: Sequence[Point]) -> list[float]:
    best = model.young_interval(knobs.rate_per_h, knobs.cost_h)
    top = max([4 * best, 1.5 * knobs.interval_h] + [1.1 * p.interval_h for p in points])
    top = min(top, knobs.work_h)
    return [top * (i + 1) / 200 for i in range(200)]


def chart(knobs: Knobs, points: Sequence[Point] = ()) -> svgplot.Chart:
    """The U-curve for these knobs, with measured points (if any) and the chosen interval."""
    xs = _grid(knobs, points)
    exact = [model.exact(knobs.work_h, x, knobs.rate_per_h, knobs.cost_h) for x in xs]
    first = [model.first_order(knobs.work_h, x, knobs.rate_per_h, knobs.cost_h) for x in xs]
    series = [
        svgplot.Series("expected total (exact)", xs, [e.total_h for e in exact]),
        svgplot.Series("checkpoint I/O", xs, [e.io_h for e in exact]),
        svgplot.Series("lost to failures", xs, [e.lost_h for e in exact]),
        svgplot.Series("first-order total", xs, [f.total_h for f in first]),
    ]
    if points:
        series.append(
            svgplot.Series(
                "miniray runs (mean ± 2 s.e.)",
                [p.interval_h for p in points],
                [p.mean_overhead_h for p in points],
                line=False,
                errors=[2 * p.stderr_h for p in points],
            )
        )
    best_total = min(e.total_h for e in exact)
    young = model.young_interval(knobs.rate_per_h, knobs.cost_h)
    rules = [svgplot.Marker(knobs.interval_h, "yours")]
    if young <= xs[-1]:
        rules.append(svgplot.Marker(young, "Young"))
    return svgplot.Chart(
        title=(
            f"{knobs.work_h:g} h job, {knobs.rate_per_h:.3f} failures/h, {knobs.cost_s:g} s per checkpoint"
        ),
        xlabel="checkpoint interval (hours)",
        ylabel="hours lost on top of the work",
        series=series,
        rules=rules,
        ylim=(0.0, max(3 * best_total, 1e-3)),
    )


def _h(value: float) -> str:
    return f"{value:.3f} h"


def summary_line(knobs: Knobs) -> str:
    """One sentence a screen reader (and a browser test) can read: the chosen interval's cost."""
    at = model.exact(knobs.work_h, knobs.interval_h, knobs.rate_per_h, knobs.cost_h)
    return (
        f"interval {knobs.interval_h:.2f} h: expected overhead {_h(at.total_h)} "
        f"(checkpoint I/O {_h(at.io_h)} + lost to failures {_h(at.lost_h)})"
    )


def summary_html(knobs: Knobs, points: Sequence[Point] = (), note: str = "") -> str:
    """The numbers behind the plot: the chosen interval, the optima, and the measured points."""
    rate, cost = knobs.rate_per_h, knobs.cost_h
    young = model.young_interval(rate, cost)
    daly = model.daly_interval(rate, cost)
    best = model.exact_interval(rate, cost)
    first = model.first_order(knobs.work_h, knobs.interval_h, rate, cost)
    rows = [
        ("Young's optimum √(2C/λ)", young),
        ("Daly's estimate", daly),
        ("exact optimum", best),
    ]
    optima = "".join(
        f"<tr><td>{escape(name)}</td><td>{tau:.3f} h ({60 * tau:.1f} min)</td>"
        f"<td>{_h(model.exact(knobs.work_h, tau, rate, cost).total_h)}</td></tr>"
        for name, tau in rows
    )
    parts = [
        f"<p><b>{escape(summary_line(knobs))}</b>; the first-order estimate says {_h(first.total_h)}.</p>",
        "<table><tr><th>interval</th><th>value</th><th>expected overhead</th></tr>" + optima + "</table>",
    ]
    if points:
        measured = "".join(
            f"<tr><td>{p.interval_h:.3f} h</td><td>{p.runs}</td><td>{p.mean_failures:.2f}</td>"
            f"<td>{_h(p.mean_overhead_h)} ± {_h(2 * p.stderr_h)}</td><td>{_h(p.model_h)}</td></tr>"
            for p in points
        )
        parts.append(
            "<table><tr><th>interval</th><th>runs</th><th>failures per run</th>"
            "<th>measured overhead</th><th>exact model</th></tr>" + measured + "</table>"
        )
    if note:
        parts.append(f"<p>{escape(note)}</p>")
    return "\n".join(parts)


class CheckpointLab:
    """The controls, the chart and the table, kept in step. ``lab.view`` is what a cell shows."""

    def __init__(self, knobs: Knobs = Knobs(), runs: int = 100) -> None:
        import ipywidgets as widgets  # only the live widget needs it

        self.knobs = knobs
        self.points: list[Point] = []
        self.note = "Press the button to run the job in miniray at a few intervals."
        style = {"description_width": "11em"}
        self.interval, self.rate, self.cost = _knob_sliders(widgets, knobs, style)
        self.runs = widgets.Dropdown(
            options=[50, 100, 200, 500], value=runs, description="runs per point", style=style
        )
        self.button = widgets.Button(description="Run the job in miniray", icon="play")
        self.plot = widgets.HTML()
        self.text = widgets.HTML()
        for control in (self.interval, self.rate, self.cost):
            control.observe(self._changed, names="value")
        self.runs.observe(self._runs_changed, names="value")
        self.button.on_click(self._run)
        self.view = widgets.VBox(
            [
                self.interval,
                self.rate,
                self.cost,
                widgets.HBox([self.runs, self.button]),
                self.plot,
                self.text,
            ]
        )
        self._draw()

    def _changed(self, change: dict) -> None:
        old = self.knobs
        self.knobs = replace(
            old, interval_h=self.interval.value, rate_per_h=self.rate.value, cost_s=float(self.cost.value)
        )
        if self.points and (old.rate_per_h, old.cost_s) != (self.knobs.rate_per_h, self.knobs.cost_s):
            # Points measured under other failures or costs would sit on the wrong curve.
            self.points = []
            self.note = "The failure rate or cost changed: press the button to measure again."
        self._draw()

    def _runs_changed(self, change: dict) -> None:
        # The setting acts on the next press; say so, so the learner sees what it will cost.
        self.note = (
            f"The next measurement averages {change['new']} runs per point: "
            "more runs, smaller error bars, a longer wait. Press the button to measure."
        )
        self._draw()

    def measure(self) -> list[Point]:
        """Run the job in miniray at a few intervals for the current knobs (the button's action)."""
        k = self.knobs
        self.points = measure_curve(k.work_h, k.rate_per_h, k.cost_h, runs=int(self.runs.value))
        first, last = self.points[0].seeds
        self.note = (
            f"Each point averages {self.runs.value} runs with seeds {first} to {last} "
            "(the same failure times at every interval)."
        )
        self._draw()
        return self.points

    def _run(self, _button: object) -> None:
        self.button.disabled, self.button.description = True, "running…"
        try:
            self.measure()
        finally:
            self.button.disabled, self.button.description = False, "Run the job in miniray"

    def _draw(self) -> None:
        self.plot.value = svgplot.render(chart(self.knobs, self.points))
        self.text.value = summary_html(self.knobs, self.points, self.note)


def _knob_sliders(widgets: Any, knobs: Knobs, style: dict) -> tuple[Any, Any, Any]:
    """The interval, failure-rate and checkpoint-cost sliders, at the knobs' values."""
    layout = widgets.Layout(width="100%", max_width="36em")
    interval = widgets.FloatSlider(
        value=knobs.interval_h,
        min=0.05,
        max=5.0,
        step=0.05,
        description="interval (h)",
        readout_format=".2f",
        continuous_update=False,
        style=style,
        layout=layout,
    )
    rate = widgets.FloatLogSlider(
        value=knobs.rate_per_h,
        base=10,
        min=-3,
        max=0,
        step=0.05,
        description="failures per hour",
        readout_format=".3f",
        continuous_update=False,
        style=style,
        layout=layout,
    )
    cost = widgets.IntSlider(
        value=int(knobs.cost_s),
        min=5,
        max=600,
        step=5,
        description="checkpoint cost (s)",
        continuous_update=False,
        style=style,
        layout=layout,
    )
    return interval, rate, cost
