"""Lesson 8's widget: the same utilisation, two layouts, and whether a big task still fits.

Two sliders: how many 1-CPU tasks are running (0 to a full cluster) and how many CPUs the big
task needs. The chart draws, against utilisation, the largest free block on any one node when
the small tasks were spread (miniray's default policy) and when they were packed, with the big
task's size as a flat line: below it, the big task queues. The table shows the chosen layout
node by node. Every point is a miniray run (`faultlines.stories.packing`).
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..stories.packing import CPUS_PER_NODE, NODES, STRATEGIES, Layout, sweep
from . import svgplot

LABELS = {"default": "spread (default policy)", "pack": "packed by hand"}


def chart(curves: dict[str, list[Layout]], big_cpus: int, small_tasks: int) -> str:
    total = NODES * CPUS_PER_NODE
    xs = [100 * k / total for k in range(total + 1)]
    series = [
        svgplot.Series(LABELS[s], xs, [x.largest_free for x in curves[s]], markers=True) for s in STRATEGIES
    ]
    series.append(svgplot.Series(f"big task needs {big_cpus}", [0, 100], [big_cpus, big_cpus]))
    return svgplot.render(
        svgplot.Chart(
            title="Largest free block on one node vs utilisation",
            xlabel="cluster utilisation (%)",
            ylabel="largest free block (CPUs)",
            series=series,
            rules=[svgplot.Marker(100 * small_tasks / total, f"{100 * small_tasks / total:.0f} %")],
            ylim=(0.0, CPUS_PER_NODE + 0.5),
        )
    )


def table(curves: dict[str, list[Layout]], small_tasks: int) -> str:
    head = "".join(f"<th>N{i + 1}</th>" for i in range(NODES))
    rows = []
    for s in STRATEGIES:
        x = curves[s][small_tasks]
        cells = "".join(f'<td style="text-align:right">{u:g}/{CPUS_PER_NODE}</td>' for u in x.used)
        verdict = "starts" if x.big_started else "queued"
        rows.append(f"<tr><td>{escape(LABELS[s])}</td>{cells}<td>{verdict}</td></tr>")
    return f"<table><thead><tr><th>layout</th>{head}<th>big task</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"


def summary_lines(curves: dict[str, list[Layout]], small_tasks: int, big_cpus: int) -> list[str]:
    out = []
    for s in STRATEGIES:
        x = curves[s][small_tasks]
        free = sum(x.free)
        out.append(
            f"{LABELS[s]}: {100 * x.utilisation:.0f} % used, {free:g} CPUs free, largest block "
            f"{x.largest_free:g}: the {big_cpus}-CPU task {'starts' if x.big_started else 'is queued'}."
        )
    return out


def packing_widget(small_tasks: int = 14, big_cpus: int = 3) -> widgets.VBox:
    count = widgets.IntSlider(
        value=small_tasks,
        min=0,
        max=NODES * CPUS_PER_NODE,
        description="1-CPU tasks",
        continuous_update=False,
    )
    big = widgets.IntSlider(
        value=big_cpus, min=1, max=CPUS_PER_NODE, description="big task CPUs", continuous_update=False
    )
    plot, numbers = widgets.HTML(), widgets.HTML()
    cache: dict[int, dict[str, list[Layout]]] = {}

    def redraw(_change: object = None) -> None:
        if big.value not in cache:
            cache[big.value] = {s: sweep(s, big.value) for s in STRATEGIES}
        curves = cache[big.value]
        plot.value = chart(curves, big.value, count.value)
        lines = "<br>".join(escape(line) for line in summary_lines(curves, count.value, big.value))
        numbers.value = table(curves, count.value) + f"<p>{lines}</p>"

    for control in (count, big):
        control.style.description_width = "initial"
        control.observe(redraw, names="value")
    redraw()
    return widgets.VBox([count, big, plot, numbers])
