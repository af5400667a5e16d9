"""Lesson 3's widget: reconstruction versus materialization, for a pipeline that loses a node.

Sliders set the stage time, which stage's output is lost, the cost of materializing it and of
reading it back, and the chance of losing the node in a run. The chart draws the expected extra
seconds per run against that chance for both strategies, with the break-even point; the table
gives the numbers. With "measure in miniray" ticked, each change also runs the 12-stage pipeline
on the simulator with the node loss, both ways, and shows the extra seconds it measured.
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from faultlines.models.materialize import Comparison, compare
from faultlines.stories.lineage import pipeline
from miniray import sim

from . import svgplot

STAGES = 12
GRID = [i / 40 for i in range(41)]


def measure(stage_s: float, lost_at: int, persist_s: float, reload_s: float) -> dict[str, float]:
    """Extra seconds after the loss, measured on miniray: each strategy's run minus a clean run."""
    clean = STAGES * stage_s
    runs = {}
    for name, materialize in (("lineage", False), ("materialize", True)):
        run = sim.run(
            functools.partial(pipeline, STAGES, stage_s, lost_at, materialize, persist_s, reload_s), seed=0
        )
        if run.error is not None:
            raise run.error
        runs[name] = run.value - clean
    return runs


def chart(c: Comparison) -> str:
    rules = [svgplot.Marker(c.p_loss, f"p = {c.p_loss:.2f}")]
    if c.break_even_p is not None:
        rules.append(svgplot.Marker(c.break_even_p, "break-even"))
    at = [compare(c.recompute_s, 1, c.persist_s, c.reload_s, p) for p in GRID]
    return svgplot.render(
        svgplot.Chart(
            title="Expected extra seconds per run",
            xlabel="chance of losing the node during a run",
            ylabel="extra seconds",
            series=[
                svgplot.Series("rely on lineage", GRID, [x.expected_lineage_s for x in at]),
                svgplot.Series("materialize the stage", GRID, [x.expected_materialize_s for x in at]),
            ],
            rules=rules,
        )
    )


def table_rows(c: Comparison, measured: dict[str, float] | None = None) -> list[tuple[str, str]]:
    even = "never" if c.break_even_p is None else f"{c.break_even_p:.2f}"
    rows = [
        ("recompute after a loss (lineage)", f"{c.recompute_s:g} s"),
        ("materialize, every run", f"{c.persist_s:g} s"),
        ("reload after a loss", f"{c.reload_s:g} s"),
        ("expected extra per run, lineage", f"{c.expected_lineage_s:.1f} s"),
        ("expected extra per run, materialize", f"{c.expected_materialize_s:.1f} s"),
        ("materializing pays off above p =", even),
        ("at this p", c.choice),
    ]
    if measured is not None:
        rows.append(
            (
                f"measured in miniray, {STAGES} stages, node lost",
                f"lineage +{measured['lineage']:g} s, materialize +{measured['materialize']:g} s",
            )
        )
    return rows


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(
        f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows
    )
    return f"<table>{body}</table>"


def lineage_calculator(
    stage_s: float = 40.0,
    lost_at: int = 7,
    persist_s: float = 50.0,
    reload_s: float = 5.0,
    p_loss: float = 0.1,
) -> widgets.VBox:
    stage_w = widgets.FloatSlider(value=stage_s, min=5, max=120, step=5, description="stage (s)")
    lost_w = widgets.IntSlider(value=lost_at, min=1, max=STAGES, description="lost stage")
    persist_w = widgets.FloatSlider(value=persist_s, min=0, max=300, step=5, description="persist (s)")
    reload_w = widgets.FloatSlider(value=reload_s, min=0, max=60, step=1, description="reload (s)")
    p_w = widgets.FloatSlider(value=p_loss, min=0.0, max=1.0, step=0.01, description="p(loss)")
    run_w = widgets.Checkbox(value=False, description="measure in miniray")
    plot = widgets.HTML()
    table = widgets.HTML()

    def update(_change: object = None) -> None:
        c = compare(stage_w.value, lost_w.value, persist_w.value, reload_w.value, p_w.value)
        measured = (
            measure(stage_w.value, lost_w.value, persist_w.value, reload_w.value) if run_w.value else None
        )
        plot.value = chart(c)
        table.value = _table(table_rows(c, measured))

    controls = (stage_w, lost_w, persist_w, reload_w, p_w, run_w)
    for control in controls:
        control.observe(update, names="value")
    update()
    return widgets.VBox([*controls, plot, table])
