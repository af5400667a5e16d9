"""Lesson 13's widget: how the export is written x when its caller cancels it -> what is left.

A menu picks the way the export is written and cancelled (the story's modes), a slider when the
caller calls `ray.cancel`. Each change runs the story in miniray: the chart draws the rows left
for every cancel time of that mode, with the chosen one marked, and the text says what `ray.get`
raised, the rows left and the attempts Ray started, so it reads without the chart.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..stories.told_to_stop import CANCEL_AT, MODES, ROWS, SWEEP, Stopped, export, sweep
from . import svgplot


def chart(mode: str, rows: list[int], cancel_at: float) -> str:
    return svgplot.render(
        svgplot.Chart(
            title=f"Rows left when the caller cancels ({mode})",
            xlabel="caller cancels at (s)",
            ylabel="rows in the table",
            series=[svgplot.Series(mode, list(SWEEP), [float(n) for n in rows], markers=True)],
            rules=[svgplot.Marker(cancel_at, f"cancel at {cancel_at:g} s")],
            ylim=(0.0, float(ROWS)),
        )
    )


def summary_lines(run: Stopped) -> list[str]:
    whole = "all or nothing" if run.rows in (0, ROWS) else "half-done"
    return [
        f"ray.get: {run.raised}.",
        f"Rows in the table: {run.rows} of {ROWS} ({whole}).",
        f"Attempts Ray started: {run.attempts} (max_retries=3; a cancel is never retried).",
    ]


def cancel_widget(mode: str = "interrupt", cancel_at: float = CANCEL_AT) -> widgets.VBox:
    menu = widgets.Dropdown(options=list(MODES), value=mode, description="export")
    when = widgets.FloatSlider(
        value=cancel_at,
        min=0.0,
        max=SWEEP[-1],
        step=0.25,
        description="cancel at (s)",
        continuous_update=False,
    )
    plot, text = widgets.HTML(), widgets.HTML()
    sweeps: dict[str, list[int]] = {}

    def redraw(_change: object = None) -> None:
        if menu.value not in sweeps:
            sweeps[menu.value] = sweep(menu.value)
        plot.value = chart(menu.value, sweeps[menu.value], when.value)
        run = export(menu.value, when.value)
        text.value = "<p>" + "<br>".join(escape(line) for line in summary_lines(run)) + "</p>"

    for control in (menu, when):
        control.style.description_width = "initial"
        control.observe(redraw, names="value")
    redraw()
    return widgets.VBox([menu, when, plot, text])
