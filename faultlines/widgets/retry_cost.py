"""Lesson 2's widget: failure probability x retries -> expected attempts and wasted work.

Sliders set the chance that one attempt fails, `max_retries`, and a retry budget (retries as a
fraction of traffic). The chart draws attempts per task against the failure chance for both
policies, with a rule at the chosen chance; the table gives the numbers. With "measure in
miniray" ticked, each change also runs 200 flaky tasks both ways on the simulator and adds the
measured points, so the learner sees the runs land on the curves.
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from faultlines.models.retries import budget_cost, retry_cost
from faultlines.stories.retry_budget import Measured, budgeted_retries, per_task_retries
from miniray import sim

from . import svgplot

TASKS = 200
GRID = [i / 40 for i in range(41)]


def measure(p: float, max_retries: int, budget: float, tasks: int = TASKS) -> tuple[Measured, Measured]:
    """The same workload run on miniray with per-task retries and with the budget (seed 0)."""
    free = sim.run(functools.partial(per_task_retries, tasks, p, max_retries), seed=0)
    capped = sim.run(functools.partial(budgeted_retries, tasks, p, max_retries, budget), seed=0)
    for run in (free, capped):
        if run.error is not None:
            raise run.error
    return free.value, capped.value


def chart(
    p: float, max_retries: int, budget: float, measured: tuple[Measured, Measured] | None = None
) -> str:
    series = [
        svgplot.Series(
            f"max_retries={max_retries}, per task", GRID, [retry_cost(x, max_retries).attempts for x in GRID]
        ),
        svgplot.Series(
            f"budget {budget:.0%} of traffic",
            GRID,
            [budget_cost(x, max_retries, budget).attempts for x in GRID],
        ),
    ]
    if measured is not None:
        series.append(
            svgplot.Series(
                f"measured, {TASKS} tasks",
                [p, p],
                [measured[0].attempts_per_task, measured[1].attempts_per_task],
                line=False,
                markers=True,
            )
        )
    return svgplot.render(
        svgplot.Chart(
            title="Attempts per task",
            xlabel="chance that one attempt fails",
            ylabel="attempts per task",
            series=series,
            rules=[svgplot.Marker(p, f"p = {p:.2f}")],
            ylim=(0.0, max_retries + 1.2),
        )
    )


def table_rows(
    p: float, max_retries: int, budget: float, measured: tuple[Measured, Measured] | None = None
) -> list[tuple[str, str, str]]:
    free, capped = retry_cost(p, max_retries), budget_cost(p, max_retries, budget)
    rows = [
        ("", f"max_retries={max_retries}", f"budget {budget:.0%}"),
        ("tasks that succeed", f"{free.success:.1%}", f"{capped.success:.1%}"),
        ("attempts per task", f"{free.attempts:.3f}", f"{capped.attempts:.3f}"),
        ("wasted attempts per task", f"{free.wasted:.3f}", f"{capped.wasted:.3f}"),
    ]
    if measured is not None:
        rows.append(
            (
                f"measured in miniray ({TASKS} tasks)",
                f"{measured[0].attempts_per_task:.3f} attempts, {measured[0].success_rate:.1%} ok",
                f"{measured[1].attempts_per_task:.3f} attempts, {measured[1].success_rate:.1%} ok",
            )
        )
    return rows


def _table(rows: list[tuple[str, str, str]]) -> str:
    head, *body = rows
    cells = "".join(f"<th>{escape(c)}</th>" for c in head)
    lines = "".join(
        "<tr>"
        + f"<th style='text-align:left'>{escape(r[0])}</th>"
        + "".join(f"<td>{escape(c)}</td>" for c in r[1:])
        + "</tr>"
        for r in body
    )
    return f"<table><tr>{cells}</tr>{lines}</table>"


def retry_cost_widget(p: float = 0.3, max_retries: int = 3, budget: float = 0.1) -> widgets.VBox:
    p_w = widgets.FloatSlider(value=p, min=0.0, max=1.0, step=0.05, description="p(fail)")
    r_w = widgets.IntSlider(value=max_retries, min=0, max=10, description="max_retries")
    b_w = widgets.FloatSlider(value=budget, min=0.0, max=0.5, step=0.05, description="budget")
    run_w = widgets.Checkbox(value=False, description="measure in miniray")
    plot = widgets.HTML()
    table = widgets.HTML()

    def update(_change: object = None) -> None:
        measured = measure(p_w.value, r_w.value, b_w.value) if run_w.value else None
        plot.value = chart(p_w.value, r_w.value, b_w.value, measured)
        table.value = _table(table_rows(p_w.value, r_w.value, b_w.value, measured))

    for control in (p_w, r_w, b_w, run_w):
        control.observe(update, names="value")
    update()
    return widgets.VBox([p_w, r_w, b_w, run_w, plot, table])
