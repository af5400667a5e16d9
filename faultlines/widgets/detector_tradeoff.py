"""Lesson 7's widget: probe interval x threshold -> how fast a hang is caught vs how often a pause
is mistaken for a death.

Three sliders (probe interval, threshold, the length of a pause you care about, such as your
longest GC pause); the chart draws, for every pause length, the chance that the detector declares
the paused node dead (`faultlines.stories.detection`), and the text says the same in numbers.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..stories.detection import Detection, detection
from . import svgplot


def chart(d: Detection, pause_s: float) -> str:
    top = max(2 * d.hang_worst_s, pause_s * 1.2, 10.0)
    steps = 200
    xs = [top * i / steps for i in range(steps + 1)]
    ys = [100 * d.presumed_dead_probability(x) for x in xs]
    return svgplot.render(
        svgplot.Chart(
            title=f"Chance a pause is declared a death (probe every {d.interval_s:g} s, {d.threshold} misses)",
            xlabel="pause length (s)",
            ylabel="presumed dead (%)",
            series=[svgplot.Series("presumed dead", xs, ys)],
            rules=[svgplot.Marker(pause_s, f"your pause {pause_s:g} s")],
            ylim=(0.0, 100.0),
        )
    )


def summary_lines(d: Detection, pause_s: float) -> list[str]:
    p = 100 * d.presumed_dead_probability(pause_s)
    return [
        f"A crash is declared within {d.crash_worst_s:g} s ({d.crash_mean_s:g} s on average).",
        f"A hang is declared {d.hang_best_s:g} to {d.hang_worst_s:g} s after it starts "
        f"({d.hang_mean_s:g} s on average).",
        f"A pause shorter than {d.hang_best_s:g} s is never declared dead; "
        f"one of {d.hang_worst_s:g} s or more always is.",
        (
            f"Your pause of {pause_s:g} s is declared dead {p:.0f} % of the time; each time, its task is "
            "re-run elsewhere while the paused attempt is still alive."
            if p > 0
            else f"Your pause of {pause_s:g} s is never declared dead: no re-run, no duplicate attempt."
        ),
    ]


def detector_widget(interval_s: float = 5.0, threshold: int = 3, pause_s: float = 12.0) -> widgets.VBox:
    interval = widgets.FloatSlider(
        value=interval_s, min=0.5, max=30.0, step=0.5, description="probe every (s)", continuous_update=False
    )
    misses = widgets.IntSlider(
        value=threshold, min=1, max=10, description="misses to DEAD", continuous_update=False
    )
    pause = widgets.FloatSlider(
        value=pause_s, min=0.0, max=120.0, step=0.5, description="pause (s)", continuous_update=False
    )
    plot, text = widgets.HTML(), widgets.HTML()

    def redraw(_change: object = None) -> None:
        d = detection(interval.value, misses.value)
        plot.value = chart(d, pause.value)
        text.value = "<p>" + "<br>".join(escape(line) for line in summary_lines(d, pause.value)) + "</p>"

    for control in (interval, misses, pause):
        control.style.description_width = "initial"
        control.observe(redraw, names="value")
    redraw()
    return widgets.VBox([interval, misses, pause, plot, text])
