"""Lesson 9's figure: each placement group's scheduling-attempt counter over time, per queue policy.

faultlines.stories.pg_recovery.attempt_trace plays seed 000's script on miniray (lose N2, ask for
PG_C, lose N3) under each queue policy and samples the counters `placement_group_table()`
reports, the same traces the lesson's widget and its numbers module read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from faultlines.figures.ink import Ink
from faultlines.stories.pg_recovery import EVENTS, GROUPS, POLICY_CHOICES, AttemptTrace, attempt_trace

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Traces:
    by_policy: dict[str, AttemptTrace]


def data() -> Traces:
    return Traces({policy: attempt_trace(policy) for policy in POLICY_CHOICES})


def _pg_c(trace: AttemptTrace) -> str:
    n = trace.final("PG_C")
    tries = f"{n:,} attempt{'' if n == 1 else 's'}"
    if trace.pg_c_created_at is None:
        return f"PG_C {trace.final_state['PG_C']}, {tries}"
    return f"PG_C CREATED at {trace.pg_c_created_at:g} s, {tries}"


def describe(t: Traces) -> tuple[str, str]:
    end = next(iter(t.by_policy.values())).times[-1]
    parts = "; ".join(
        f"{policy}: PG_A {trace.final('PG_A'):,} attempts, PG_B {trace.final('PG_B'):,}, {_pg_c(trace)}"
        for policy, trace in t.by_policy.items()
    )
    events = ", ".join(f"{label} at {at:g} s" for at, label in EVENTS)
    alt = (
        f"{len(t.by_policy)} stacked line charts, one per queue policy, of the scheduling-attempt "
        f"counters of PG_A, PG_B and PG_C over {end:g} virtual seconds, on a logarithmic scale "
        f"(zero at the bottom), with {events}. After {end:g} s: {parts}."
    )
    hot = t.by_policy["ray-2.60"]
    through = [policy for policy, trace in t.by_policy.items() if trace.pg_c_created_at is not None]
    caption = (
        f"Under Ray 2.60's policy the stuck groups retry at full speed, PG_A reaching "
        f"{hot.final('PG_A'):,} attempts, while PG_C, which would fit, is tried "
        f"{hot.final('PG_C'):,} times: activity is not progress. PG_C is created under "
        f"{' and '.join(through)}."
    )
    return alt, caption


def draw(t: Traces, ink: Ink) -> Figure:
    from matplotlib.figure import Figure

    n = len(t.by_policy)
    fig = Figure(figsize=(5.0, 1.7 * n + 0.9))
    axes = fig.subplots(n, 1, sharex=True)
    colours = {"PG_A": ink.red, "PG_B": ink.blue, "PG_C": ink.green}
    styles = {"PG_A": "-", "PG_B": "--", "PG_C": ":"}
    top = max(trace.final(name) for trace in t.by_policy.values() for name in GROUPS)
    for ax, (policy, trace) in zip(axes, t.by_policy.items()):
        for name in GROUPS:
            ax.plot(trace.times, trace.attempts[name], styles[name], color=colours[name], lw=2, label=name)
        for at, _label in EVENTS:
            ax.axvline(at, color=ink.muted, lw=0.8, ls=":")
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(0, top * 3)
        # Plain numbers rather than 10 with a superscript, which matplotlib draws at 70 % size.
        ax.set_yticks([10**k for k in range(0, 7, 2)] + [0], ["1", "100", "10k", "1M", "0"])
        ax.minorticks_off()
        ax.set_title(f"{policy}: {_pg_c(trace)}", loc="left", fontsize=9.5)
        ax.grid(True, axis="y", lw=0.6)
        ax.set_ylabel("attempts")
    # The script's events as labelled ticks along the top, so no label sits on a curve.
    events = axes[0].secondary_xaxis("top")
    events.set_xticks([at for at, _ in EVENTS], [label.replace(" ", "\n", 1) for _, label in EVENTS])
    events.tick_params(colors=ink.muted, labelcolor=ink.text, labelsize=9)
    events.spines["top"].set_visible(False)
    axes[-1].set_xlabel("virtual seconds")
    axes[-1].legend(loc="upper left", ncols=3)
    fig.tight_layout()
    return fig
