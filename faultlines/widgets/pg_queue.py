"""Lesson 9's widget: each placement group's scheduling-attempt counter over time, per queue policy.

Pick a policy (and the scheduler's speed); the widget replays seed 000's script on miniray
(`faultlines.stories.pg_recovery.attempt_trace`) and draws the counters on a log scale (PG_A's
hundreds of thousands and PG_C's 0 on one chart), who waits for whom at the end (the cycle,
which no policy breaks), and a table and one sentence per group so it reads without the
pictures. Traces are cached per choice: a switch back is instant.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..stories.pg_recovery import (
    EVENTS,
    GROUPS,
    PG_C_AT,
    POLICY_CHOICES,
    REAL_RAY_ONE_GROUP_RATE,
    SEED_HOST_COST_S,
    AttemptTrace,
    attempt_trace,
)
from . import log_chart, wait_for

# The scheduler's speed: what one failed attempt costs in virtual time.
SPEEDS: dict[str, float] = {
    "as fast as the seed's host": SEED_HOST_COST_S,
    "as fast as real Ray 2.60 here": 1 / REAL_RAY_ONE_GROUP_RATE,
}


def _since_asked(trace: AttemptTrace, name: str) -> log_chart.Counter:
    """A group's counter from when it exists: PG_C is asked for at PG_C_AT, and its line before
    then would be a 0 that means nothing."""
    start = PG_C_AT if name == "PG_C" else trace.times[0]
    kept = [(t, n) for t, n in zip(trace.times, trace.attempts[name], strict=True) if t >= start - 1e-9]
    return log_chart.Counter(name, [t for t, _ in kept], [n for _, n in kept])


def chart(trace: AttemptTrace) -> str:
    """The counters as an SVG line chart on a log scale, the script's events above the plot."""
    return log_chart.render(
        title=f"Scheduling attempts per group, policy {trace.policy}",
        counters=[_since_asked(trace, name) for name in GROUPS],
        events=[log_chart.Event(t, label) for t, label in EVENTS],
        xlabel="virtual seconds",
        ylabel="attempts (log scale)",
        xticks=[0, 0.5, 1, 1.5, 2, 2.5, 3][: 1 + round(trace.times[-1] / 0.5)],
    )


def waits(trace: AttemptTrace) -> str:
    """Who waits for whom at the trace's end, as the diagnosis found it."""
    return wait_for.render(
        trace.policy,
        trace.times[-1],
        trace.final_state,
        {name: trace.final(name) for name in GROUPS},
        trace.waits,
        trace.cycles,
        asked=GROUPS,
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
    """ToggleButtons for the policy, a dropdown for the scheduler's speed, the chart, who waits for
    whom, and the table."""
    policy = widgets.ToggleButtons(options=list(POLICY_CHOICES), value="ray-2.60", description="queue policy")
    speed = widgets.Dropdown(options=list(SPEEDS), value=next(iter(SPEEDS)), description="scheduler")
    for control in (policy, speed):
        control.style.description_width = "initial"  # the default width cuts "queue policy"
    plot = widgets.HTML()
    graph = widgets.HTML()
    numbers = widgets.HTML()
    cache: dict[tuple[str, str], AttemptTrace] = {}

    def redraw(_change: object = None) -> None:
        key = (policy.value, speed.value)
        if key not in cache:
            cache[key] = attempt_trace(policy.value, attempt_cost_s=SPEEDS[speed.value])
        trace = cache[key]
        plot.value = chart(trace)
        graph.value = waits(trace)
        numbers.value = table(trace)

    policy.observe(redraw, names="value")
    speed.observe(redraw, names="value")
    redraw()
    return widgets.VBox([policy, speed, plot, graph, numbers])
