"""Lesson 1's widget: move a fault along the virtual clock and watch the run's lanes change.

Controls: which fault (none, kill a node, kill a worker on that node), where it strikes and when.
Each change re-runs the scenario from scratch with `miniray.sim.run` under that one fault (same
seed, so only the fault differs) and shows the lanes as SVG, the same lanes as text, and a table:
what the run returned, when it finished, how many attempts it took, and the token that replays it.
A fault set after the run's end never strikes, so the run's trace has no mark of it: the chart
then draws its marker anyway, past the end, and the table says it changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from faultlines.timeline import Observed, observe, render_text

from . import statechart
from .svgplot import Marker

NONE = "no fault"
KINDS = (NONE, "kill_node", "kill_worker")


def faults_for(kind: str, node: str, at: float) -> list[str]:
    """The schedule the controls describe, as fault tokens."""
    return [] if kind == NONE else [f"{kind} {node} at={at:g}"]


def missed_fault(observed: Observed, kind: str, at: float) -> bool:
    """True when the chosen fault never struck: it came after the run had ended, so the run's
    trace has no mark of it (the chart still shows where it would have been)."""
    if kind == NONE:
        return False
    return not any(mark.time == at and mark.label.startswith(kind) for mark in observed.lanes.marks)


def chart(observed: Observed, kind: str, node: str, at: float) -> str:
    """The lanes as SVG, with the fault's marker always on the time axis, struck or not."""
    title = f"{kind} {node} at {at:g} s" if kind != NONE else "no fault"
    if not missed_fault(observed, kind, at):
        return statechart.render(statechart.from_lanes(observed.lanes, title=title))
    strip = statechart.from_lanes(observed.lanes, title=title, end=max(observed.lanes.end, at))
    strip.rules.append(Marker(at, f"{kind} {node} at {at:g} s: after the run ended"))
    return statechart.render(strip)


def summary_rows(observed: Observed, missed: str = "") -> list[tuple[str, str]]:
    run = observed.run
    fault = [("fault", missed)] if missed else []
    return fault + [
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
    picture = widgets.HTML()
    table = widgets.HTML()
    text = widgets.HTML()

    def update(_change: object = None) -> None:
        kind, node, at = kind_w.value, node_w.value, at_w.value
        observed = observe(scenario, seed=seed, faults=faults_for(kind, node, at))
        picture.value = chart(observed, kind, node, at)
        missed = missed_fault(observed, kind, at)
        note = f"{kind} {node} at {at:g} s came after the run ended, so it changed nothing" if missed else ""
        table.value = _table(summary_rows(observed, note))
        text.value = f"<pre>{escape(render_text(observed.lanes))}</pre>"

    for control in (kind_w, node_w, at_w):
        control.observe(update, names="value")
    update()
    return widgets.VBox([widgets.HBox([kind_w, node_w]), at_w, picture, table, text])
