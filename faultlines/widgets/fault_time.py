"""Lesson 1's widget: move a fault along the virtual clock and watch the run's lanes change.

Controls: which fault (none, kill a node, kill a worker on that node), where it strikes and when.
Each change re-runs the scenario from scratch with `miniray.sim.run` under that one fault (same
seed, so only the fault differs) and shows the lanes as SVG, the same lanes as text, and a table:
what the run returned, when it finished, how many attempts it took, and the token that replays it.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from faultlines.timeline import Observed, observe, render_text

from . import statechart

NONE = "no fault"
KINDS = (NONE, "kill_node", "kill_worker")


def faults_for(kind: str, node: str, at: float) -> list[str]:
    """The schedule the controls describe, as fault tokens."""
    return [] if kind == NONE else [f"{kind} {node} at={at:g}"]


def summary_rows(observed: Observed) -> list[tuple[str, str]]:
    run = observed.run
    return [
        ("result", observed.outcome()),
        ("finished at (virtual s)", f"{run.virtual_time:g}"),
        ("task attempts", str(observed.lanes.attempts())),
        ("attempts that did not finish", str(len(observed.lanes.failed()))),
        ("replay with", run.token()),
    ]


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(
        f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows
    )
    return f"<table>{body}</table>"


def fault_time(
    scenario: Callable[[], Any],
    nodes: tuple[str, ...] = ("node:1", "node:2"),
    seed: int = 0,
    horizon: float = 3.0,
    kind: str = "kill_node",
    at: float = 1.5,
) -> widgets.VBox:
    """The widget for `scenario` (a function that builds its cluster and returns a value)."""
    kind_w = widgets.Dropdown(options=KINDS, value=kind, description="fault")
    node_w = widgets.Dropdown(options=nodes, value=nodes[0], description="on")
    at_w = widgets.FloatSlider(
        value=at, min=0.0, max=horizon, step=0.25, description="at (s)", readout_format=".2f"
    )
    chart = widgets.HTML()
    table = widgets.HTML()
    text = widgets.HTML()

    def update(_change: object = None) -> None:
        observed = observe(scenario, seed=seed, faults=faults_for(kind_w.value, node_w.value, at_w.value))
        title = f"{kind_w.value} {node_w.value} at {at_w.value:g} s" if kind_w.value != NONE else "no fault"
        chart.value = statechart.render(statechart.from_lanes(observed.lanes, title=title))
        table.value = _table(summary_rows(observed))
        text.value = f"<pre>{escape(render_text(observed.lanes))}</pre>"

    for control in (kind_w, node_w, at_w):
        control.observe(update, names="value")
    update()
    return widgets.VBox([widgets.HBox([kind_w, node_w]), at_w, chart, table, text])
