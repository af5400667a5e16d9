"""The lanes' fixed column: the row labels, drawn last over the chart in one group that the front
end (static/debugger.js) keeps at the scroll box's left edge.

The chart is drawn at its own size and scrolls sideways in its box wherever it is wider (on a
390 px phone, always): a row keeps its name ("worker 10002", never "er 10002") while its bars
scroll under it. The chart's title and caption are the HTML around the box (render.view), so
no scrolling cuts them. Without the front end (a notebook that shows the HTML alone) the group
stays where it is drawn, over the chart's own labels.
"""

from __future__ import annotations

from html import escape

from faultlines.widgets.statechart import Plot
from faultlines.widgets.svgplot import INK

PAPER = "var(--jp-layout-color0, #fff)"  # the page under the chart, in either theme
CHAR_PX = 7  # a character of the 12 px sans-serif text, with margin


def label_column(labels: list[str], gap: int) -> int:
    """The column's width: the longest row label ("worker 10002") and the gap to the plot."""
    return max(64, max((len(label) for label in labels), default=0) * CHAR_PX + gap + 8)


def draw(plot: Plot, labels: list[str], gap: int) -> list[str]:
    """The group: paper under the labels, which the bars scroll under, and the labels."""
    out = [
        '<g class="fl-dbg-pin">',
        f'<rect class="fl-dbg-pin-column" x="0" y="{plot.top:.1f}" width="{plot.left - 1:.1f}" '
        f'height="{plot.height:.1f}" fill="{PAPER}"/>',
    ]
    for index, label in enumerate(labels):
        baseline = plot.row_top(index) + plot.row_height / 2 + 4
        out.append(
            f'<text x="{plot.left - gap}" y="{baseline:.1f}" text-anchor="end" fill="{INK}">'
            f"{escape(label)}</text>"
        )
    out.append("</g>")
    return out
