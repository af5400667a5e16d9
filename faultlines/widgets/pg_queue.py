"""Lesson 9's widget: each placement group's scheduling-attempt counter over time, per queue policy.

Pick a policy (and the scheduler's speed); the widget replays seed 000's script on miniray
(`faultlines.stories.pg_recovery.attempt_trace`) and draws the counters, with a table and one
sentence per group so it reads without the plot. Traces are cached per choice: a switch back is
instant.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..stories.pg_recovery import (
    EVENTS,
    GROUPS,
    POLICY_CHOICES,
    REAL_RAY_ONE_GROUP_RATE,
    SEED_HOST_COST_S,
    AttemptTrace,
    attempt_trace,
)
from . import svgplot

# The scheduler's speed: what one failed attempt costs in virtual time.
SPEEDS: dict[str, float] = {
    "as fast as the seed's host": SEED_HOST_COST_S,
    "as fast as real Ray 2.60 here": 1 / REAL_RAY_ONE_GROUP_RATE,
}


def chart(trace: AttemptTrace) -> str:
    """The counters as an SVG line chart, one line per group, the script's events as rules."""
    series = [
        svgplot.Series(name, trace.times, trace.attempts[name], markers=name == "PG_C") for name in GROUPS
    ]
    return svgplot.render(
        svgplot.Chart(
            title=f"Scheduling attempts per group, policy {trace.policy}",
            xlabel="virtual seconds",
            ylabel="scheduling_attempt",
            series=series,
            rules=[svgplot.Marker(t, label) for t, label in EVENTS],
        )
    )


def summary_lines(trace: AttemptTrace) -> list[str]:
    """One sentence per group: its counter, its state, and its rate over the last second."""
    end = trace.times[-1]
    return [
        f"{name}: {trace.final(name):,} scheduling attempt{'' if trace.final(name) == 1 else 's'}, "
        f"{trace.final_state[name]}"
        f" ({trace.rate(name, end - 1.0):,.0f} per second over the last second)"
        for name in GROUPS
    ]


def table(trace: AttemptTrace) -> str:
    rows = "".join(
        f'<tr data-pg="{name}"><td>{name}</td><td style="text-align:right">{trace.final(name):,}</td>'
        f"<td>{escape(trace.final_state[name])}</td></tr>"
        for name in GROUPS
    )
    diagnosis = "".join(f"<li>{escape(line.lstrip('- '))}</li>" for line in trace.diagnosis)
    return (
        '<table class="fl-pg-table"><thead><tr><th>group</th><th>attempts at '
        f"t={trace.times[-1]:g} s</th><th>state</th></tr></thead><tbody>{rows}</tbody></table>"
        + "<p>"
        + "<br>".join(escape(s) for s in summary_lines(trace))
        + "</p>"
        + (f"<p>miniray's diagnosis:</p><ul>{diagnosis}</ul>" if diagnosis else "")
    )


def queue_policy_widget() -> widgets.VBox:
    """ToggleButtons for the policy, a dropdown for the scheduler's speed, the chart and the table."""
    policy = widgets.ToggleButtons(options=list(POLICY_CHOICES), value="ray-2.60", description="queue policy")
    speed = widgets.Dropdown(options=list(SPEEDS), value=next(iter(SPEEDS)), description="scheduler")
    for control in (policy, speed):
        control.style.description_width = "initial"  # the default width cuts "queue policy"
    plot = widgets.HTML()
    numbers = widgets.HTML()
    cache: dict[tuple[str, str], AttemptTrace] = {}

    def redraw(_change: object = None) -> None:
        key = (policy.value, speed.value)
        if key not in cache:
            cache[key] = attempt_trace(policy.value, attempt_cost_s=SPEEDS[speed.value])
        trace = cache[key]
        plot.value = chart(trace)
        numbers.value = table(trace)

    policy.observe(redraw, names="value")
    speed.observe(redraw, names="value")
    redraw()
    return widgets.VBox([policy, speed, plot, numbers])
