"""The debugger in a notebook: the view (render.py) in an ipywidgets HTML, and the what-if controls
as ipywidgets buttons and number boxes whose callbacks re-run the schedule in the kernel.

Why this split (docs/design/debugger.md): stepping through events must be instant and work with
no Python at all (the standalone page), so the cursor lives in the browser (static/debugger.js);
a what-if needs the run again, so those controls are ipywidgets, which the lab already ships
with its comm to the kernel. No custom widget front end, no lab extension.
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from . import frontend, render, whatif
from .compare import Passing
from .session import Snapshot, Source, passing_run

BOX_CLASSES = ("fl-debugger", "fl-debugger-box")


class Debugger:
    """One debugger: a source to re-run, the snapshot shown, and the passing run to compare with."""

    def __init__(
        self, source: Source, snap: Snapshot, passing: Passing | None = None, *, compare: bool = True
    ):
        self.source = source
        self.original = snap
        self.snap = snap
        self.passing = passing if passing is not None or not compare else passing_run(source, snap)
        self.head = widgets.HTML(render.head(snap))
        self.view = widgets.HTML(render.view(snap, self.passing))
        self.controls = widgets.VBox([])
        self.message = widgets.HTML("")
        title = widgets.HTML("<h4>Debugger</h4>")
        self.box = widgets.VBox([title, self.head, self.controls, self.message, self.view])
        for name in BOX_CLASSES:
            self.box.add_class(name)
        self._build_controls()

    # -- the what-if controls ------------------------------------------------------------------
    def _build_controls(self) -> None:
        rows: list[Any] = []
        if not self.source.can_rerun:
            self.controls.children = [
                widgets.HTML(
                    "<p>To re-run it with a fault removed or moved, pass the scenario: "
                    "<code>debug(run, scenario)</code>.</p>"
                )
            ]
            return
        schedule = self.snap.schedule
        for index, token in enumerate(schedule):
            remove = widgets.Button(description=f"Remove fault {token}", layout=widgets.Layout(width="auto"))
            remove.on_click(lambda _b, i=index: self.rerun(whatif.without(self.snap.schedule, i)))
            row = [remove]
            knob = whatif.knob(token)
            if knob is not None:
                box_type = widgets.IntText if knob.whole else widgets.FloatText
                value = box_type(
                    value=knob.value,
                    description=f"{knob.label} of {token.split()[0]}",
                    style={"description_width": "initial"},
                    layout=widgets.Layout(width="16em"),
                )
                move = widgets.Button(
                    description=f"Re-run with the {knob.label} moved", layout=widgets.Layout(width="auto")
                )
                move.on_click(lambda _b, i=index, box=value: self._move(i, box.value))
                row += [value, move]
            rows.append(widgets.HBox(row))
        if schedule != self.original.schedule:
            back = widgets.Button(description="Back to the failing run", layout=widgets.Layout(width="auto"))
            back.on_click(lambda _b: self.rerun(self.original.schedule))
            rows.append(widgets.HBox([back]))
        if not schedule:
            rows.insert(0, widgets.HTML("<p>This run has no faults left to remove.</p>"))
        self.controls.children = [widgets.HTML("<b>What if:</b>"), *rows]

    def _move(self, index: int, value: float) -> None:
        schedule = list(self.snap.schedule)
        try:
            schedule[index] = whatif.moved(schedule[index], value)
        except ValueError as e:
            self.message.value = f'<p class="fl-dbg-bad">Cannot move it: {e}</p>'
            return
        self.rerun(tuple(schedule))

    def rerun(self, schedule: tuple[str, ...]) -> Snapshot:
        """Run the schedule again (deterministic) and redraw everything in place."""
        self.message.value = ""
        try:
            self.snap = self.source.run(schedule)
        except Exception as e:  # a bug of ours, or code that broke between runs: say so, keep the view
            self.message.value = (
                f'<p class="fl-dbg-bad">The re-run failed: {escape(f"{type(e).__name__}: {e}")}</p>'
            )
            return self.snap
        # The view first, the verdict last: the front end moves focus to the new verdict once
        # both are in (a screen reader then reads it), and a test that waits for the verdict
        # finds the view already redrawn.
        self.view.value = render.view(self.snap, self.passing)
        self._build_controls()
        self.head.value = render.head(self.snap)
        return self.snap

    # -- display -----------------------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display  # only where IPython runs: it displays there

        frontend.ensure(display)
        display(self.box)

    def _repr_html_(self) -> str:  # a notebook front end without widgets: the view, not steppable
        return render.head(self.snap) + render.view(self.snap, self.passing)

    def __repr__(self) -> str:
        return f"<Debugger: {self.snap.verdict.sentence()}>"
