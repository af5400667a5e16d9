"""Lesson 4's widget: drag an actor's restart and checkpoint options, watch each call's answer.

Every change reruns lesson 4's counter (faultlines.stories.actor_lives) in miniray: 60 calls,
the process exiting after ``crash_every`` answered calls in each life. The plot shows the count
each call returned, the number of calls answered so far (the count a caller expects), and the
calls that raised; the gap between the two lines is the work the actor forgot. The same numbers
are in the sentence and the row of outcomes under the plot.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from faultlines.stories.actor_lives import DIED, UNAVAILABLE, CounterRun, run_counter
from faultlines.widgets import svgplot

CALLS = 60


@dataclass(frozen=True)
class Options:
    max_restarts: int = 4
    max_task_retries: int = -1
    checkpoint_every: int = 0
    crash_every: int = 10

    def run(self) -> CounterRun:
        return run_counter(
            calls=CALLS,
            crash_every=self.crash_every,
            max_restarts=self.max_restarts,
            max_task_retries=self.max_task_retries,
            checkpoint_every=self.checkpoint_every,
        )


def chart(options: Options, run: CounterRun) -> svgplot.Chart:
    answered, expected = 0, []
    for outcome in run.outcomes:
        answered += outcome.value is not None
        expected.append(answered)
    calls = [o.call for o in run.outcomes]
    series = [
        svgplot.Series("calls answered so far", calls, expected),
        svgplot.Series(
            "count returned",
            [o.call for o in run.outcomes if o.value is not None],
            [o.value for o in run.outcomes if o.value is not None],
            line=False,
        ),
    ]
    for name in (UNAVAILABLE, DIED):
        hit = [o.call for o in run.outcomes if o.error == name]
        if hit:
            series.append(svgplot.Series(f"{name} (at 0)", hit, [0] * len(hit), line=False))
    checkpoint = (
        f"checkpoint every {options.checkpoint_every}" if options.checkpoint_every else "no checkpoint"
    )
    return svgplot.Chart(
        title=(
            f"max_restarts={options.max_restarts}, max_task_retries={options.max_task_retries}, "
            f"{checkpoint}, exit after {options.crash_every} calls"
        ),
        xlabel="call number",
        ylabel="count",
        series=series,
        ylim=(0, CALLS * 1.3),  # headroom: the legend sits above the data
    )


def summary(options: Options, run: CounterRun) -> str:
    """One sentence with every count the plot shows."""
    return (
        f"{len(run.values)} of {CALLS} calls returned a count; "
        f"{run.count(UNAVAILABLE)} raised ActorUnavailableError and {run.count(DIED)} ActorDiedError. "
        f"{run.lives} lives, {run.executions} method executions, {run.checkpoints} checkpoints written. "
        f"Final count {run.final}: {run.forgotten} answered increments forgotten."
    )


def summary_html(options: Options, run: CounterRun) -> str:
    return f"<p><b>{escape(summary(options, run))}</b></p><pre>{escape(run.lines())}</pre>"


class ActorLivesLab:
    """Sliders for the actor's options, the plot and the outcomes; ``lab.view`` shows them."""

    def __init__(self, options: Options = Options()) -> None:
        import ipywidgets as widgets  # only the live widget needs it

        style = {"description_width": "12em"}
        layout = widgets.Layout(width="100%", max_width="36em")
        self.restarts = widgets.IntSlider(
            value=options.max_restarts, min=0, max=6, description="max_restarts", style=style, layout=layout
        )
        self.retries = widgets.Dropdown(
            options=[("0 (default)", 0), ("1", 1), ("-1 (no limit)", -1)],
            value=options.max_task_retries,
            description="max_task_retries",
            style=style,
        )
        self.checkpoint = widgets.IntSlider(
            value=options.checkpoint_every,
            min=0,
            max=10,
            description="checkpoint every (0: never)",
            style=style,
            layout=layout,
        )
        self.crash = widgets.IntSlider(
            value=options.crash_every,
            min=1,
            max=15,
            description="exit after calls",
            style=style,
            layout=layout,
        )
        self.plot = widgets.HTML()
        self.text = widgets.HTML()
        for control in (self.restarts, self.retries, self.checkpoint, self.crash):
            control.observe(self._changed, names="value")
        self.view = widgets.VBox(
            [self.restarts, self.retries, self.checkpoint, self.crash, self.plot, self.text]
        )
        self._changed(None)

    @property
    def options(self) -> Options:
        return Options(self.restarts.value, self.retries.value, self.checkpoint.value, self.crash.value)

    def _changed(self, _change: object) -> None:
        options = self.options
        self.run = options.run()
        self.plot.value = svgplot.render(chart(options, self.run))
        self.text.value = summary_html(options, self.run)
