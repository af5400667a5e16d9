"""Lesson 14's widget: what a consumer reads before and after a rebuild from lineage.

Three controls: where `sample` takes its seed (the clock, or an argument), how `rows` reads the
table (what it holds now, or the version passed as an argument), and how the table changes
before the node dies (a row appended, deleted, edited, or nothing). Each change runs the story
on miniray; the chart draws the three draws as first read and as rebuilt, and the table gives
every value side by side with "same" or what changed, so it reads without colour.
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from faultlines.stories.replays import replays
from miniray import sim

from . import svgplot

CHANGES = ("append", "delete", "edit", "none")


def measure(seed: int | None, snapshot: bool, change: str) -> dict:
    """The story's first and second reads on miniray (seed 0)."""
    run = sim.run(functools.partial(replays, seed=seed, snapshot=snapshot, change=change), seed=0)
    if run.error is not None:
        raise run.error
    return run.value


def table_rows(reads: dict) -> list[tuple[str, str, str, str]]:
    first, again = reads["first"], reads["again"]
    rows = [("value", "first read", "after the rebuild", "")]
    for i, (a, b) in enumerate(zip(first["draws"], again["draws"], strict=True)):
        rows.append((f"draw {i + 1}", str(a), str(b), "same" if a == b else "differs, no error"))
    for i, (a, b) in enumerate(zip(first["rows"], again["rows"], strict=False)):
        verdict = "same" if a == b else ("raised" if "Error" in b else "differs, no error")
        rows.append((f"row {i + 1}", a, b.replace("RayTaskError(", "").rstrip(")"), verdict))
    return rows


def verdict(reads: dict) -> str:
    rows = table_rows(reads)[1:]
    differ = sum(r[3] == "differs, no error" for r in rows)
    raised = sum(r[3] == "raised" for r in rows)
    return f"{len(rows) - differ - raised} of {len(rows)} values the same; {differ} differ silently; {raised} raise"


def chart(reads: dict) -> str:
    xs = [1, 2, 3]
    return svgplot.render(
        svgplot.Chart(
            title="sample's three draws",
            xlabel="draw",
            ylabel="value",
            series=[
                svgplot.Series("first read", xs, reads["first"]["draws"], line=False, markers=True),
                svgplot.Series("after the rebuild", xs, reads["again"]["draws"], line=True, markers=True),
            ],
            ylim=(0.0, 100.0),
        )
    )


def _table(rows: list[tuple[str, str, str, str]]) -> str:
    head, *body = rows
    cells = "".join(f"<th>{escape(c)}</th>" for c in head)
    lines = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in body)
    return f"<table><tr>{cells}</tr>{lines}</table>"


def replay_check_widget() -> widgets.VBox:
    seed_w = widgets.ToggleButtons(options=["the clock", "an argument"], description="seed")
    read_w = widgets.ToggleButtons(options=["what it holds now", "a version"], description="table read")
    change_w = widgets.Dropdown(options=CHANGES, value="append", description="table change")
    plot, table, summary = widgets.HTML(), widgets.HTML(), widgets.HTML()

    def update(_change: object = None) -> None:
        seed = 7 if seed_w.value == "an argument" else None
        reads = measure(seed, read_w.value == "a version", change_w.value)
        plot.value = chart(reads)
        rows = table_rows(reads)
        table.value = _table(rows)
        summary.value = f"<p><strong>{escape(verdict(reads))}</strong></p>"

    for control in (seed_w, read_w, change_w):
        control.observe(update, names="value")
    update()
    return widgets.VBox([seed_w, read_w, change_w, summary, plot, table])
