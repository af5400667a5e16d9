"""Lesson 5's widget: move the crash through settle_order's steps and count the charges.

Pick how the task writes the payment (the bug or one of three fixes), where its dying attempts
stop, and how many attempts die. Each change reruns the task in miniray
(faultlines.stories.payments) and shows the outcome, the effect log and the attempts. The
chart shows, for every way of writing the task, how many times the customer pays when the
attempts die at each point: only the bug ever goes above one.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from faultlines.stories.payments import FIXES, STEPS, SettleRun, grid, settle
from faultlines.widgets import svgplot


@dataclass(frozen=True)
class Choice:
    fix: str = "append"
    step: int = 1  # crash before interaction `step` of each dying attempt
    crashes: int = 1  # how many attempts die there (0: none)

    def run(self) -> SettleRun:
        return settle(self.fix, self.step if self.crashes else None, max(self.crashes, 1))


def where(fix: str, step: int) -> str:
    """The crash point in words: after which step of the body the attempt dies."""
    steps = STEPS[fix]
    if step == 0:
        return f"before it does anything ({steps[0]})"
    if step == len(steps):
        return f"after '{steps[-1]}', before returning"
    return f"after '{steps[step - 1]}', before '{steps[step]}'"


def chart(choice: Choice, charges: dict[str, list[int]]) -> svgplot.Chart:
    series = [
        svgplot.Series(fix, list(range(len(counts))), counts, markers=True) for fix, counts in charges.items()
    ]
    return svgplot.Chart(
        title=f"Charges per order when {max(choice.crashes, 1)} attempt(s) die at each point",
        xlabel="crash point (steps done before the crash)",
        ylabel="times the customer paid",
        series=series,
        rules=[svgplot.Marker(choice.step, "yours")] if choice.crashes else [],
        ylim=(0, max(4, max(max(c) for c in charges.values()) + 2)),  # headroom for the legend
    )


def summary(choice: Choice, run: SettleRun) -> str:
    if choice.crashes == 0:
        crash = "no attempt dies"
    else:
        crash = f"{choice.crashes} attempt(s) die {where(choice.fix, choice.step)}"
    leftovers = f"; {run.leftovers} temp file(s) left behind" if run.leftovers else ""
    return (
        f"{choice.fix}: {crash}. ray.get gave {run.result} after {run.attempts} attempt(s); "
        f"the customer paid {run.charges} time(s){leftovers}."
    )


def table_html(charges: dict[str, list[int]]) -> str:
    """The chart's numbers: times the customer paid, by task and crash point."""
    width = max(len(c) for c in charges.values())
    head = "".join(f"<th>{k}</th>" for k in range(width))
    rows = "".join(
        f"<tr><td>{escape(fix)}</td>" + "".join(f"<td>{n}</td>" for n in counts) + "</tr>"
        for fix, counts in charges.items()
    )
    return f"<table><tr><th>task \\ crash point</th>{head}</tr>{rows}</table>"


def summary_html(choice: Choice, run: SettleRun, charges: dict[str, list[int]] | None = None) -> str:
    return (
        f"<p><b>{escape(summary(choice, run))}</b></p>"
        + (table_html(charges) if charges else "")
        + f"<p>Effects (time, attempt, operation):</p><pre>{escape(run.effects) or '(none)'}</pre>"
        f"<p>Attempts:</p><pre>{escape(run.timeline())}</pre>"
    )


class IdempotencyLab:
    """The controls, the chart and the run's logs; ``lab.view`` shows them."""

    def __init__(self, choice: Choice = Choice()) -> None:
        import ipywidgets as widgets  # only the live widget needs it

        style = {"description_width": "10em"}
        layout = widgets.Layout(width="100%", max_width="36em")
        self.fix = widgets.Dropdown(
            options=list(FIXES), value=choice.fix, description="the task", style=style
        )
        self.step = widgets.IntSlider(
            value=choice.step,
            min=0,
            max=len(STEPS[choice.fix]),
            description="crash point",
            style=style,
            layout=layout,
        )
        self.crashes = widgets.IntSlider(
            value=choice.crashes, min=0, max=4, description="attempts that die", style=style, layout=layout
        )
        self.where = widgets.HTML()  # wraps on a phone, unlike a Label
        self.plot = widgets.HTML()
        self.text = widgets.HTML()
        self._grids: dict[int, dict[str, list[int]]] = {}
        self.fix.observe(self._fix_changed, names="value")
        for control in (self.step, self.crashes):
            control.observe(self._changed, names="value")
        self.view = widgets.VBox([self.fix, self.step, self.where, self.crashes, self.plot, self.text])
        self._changed(None)

    @property
    def choice(self) -> Choice:
        return Choice(self.fix.value, self.step.value, self.crashes.value)

    def _fix_changed(self, change: dict) -> None:
        # A fix with fewer steps: keep "after everything" meaning after everything.
        was_last = self.step.value == self.step.max
        self.step.max = len(STEPS[self.fix.value])
        if was_last:
            self.step.value = self.step.max
        self._changed(None)

    def _changed(self, _change: object) -> None:
        choice = self.choice
        self.run = choice.run()
        crashes = max(choice.crashes, 1)
        if crashes not in self._grids:  # every fix at every point: 14 short runs, kept per count
            self._grids[crashes] = grid(crashes)
        self.where.value = escape(f"The dying attempts stop {where(choice.fix, choice.step)}.")
        self.plot.value = svgplot.render(chart(choice, self._grids[crashes]))
        self.text.value = summary_html(choice, self.run, self._grids[crashes])
