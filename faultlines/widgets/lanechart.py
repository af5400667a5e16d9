"""The lanes of a run (faultlines.timeline) as an SVG state timeline, beside svgplot's line chart.

One row per worker; a bar per task attempt. How the attempt ended is told three ways, so the chart
reads without colour: the fill colour, a pattern of the outline (solid finished, dashed retry,
dotted reconstruction) and a letter after a bar that did not finish (X died, E raised). Faults are
dashed vertical rules with their label. Colours and text follow the notebook theme (svgplot's CSS
variables).
"""

from __future__ import annotations

from html import escape

from faultlines.timeline.lanes import ERROR, FAILED, OK, OPEN, Lanes

from .svgplot import FAINT, INK, PALETTE, nice_ticks

COLOUR = {OK: PALETTE[0], FAILED: PALETTE[1], ERROR: PALETTE[3], OPEN: PALETTE[5]}
END_LETTER = {OK: "", FAILED: "X", ERROR: "E", OPEN: ">"}


def render(lanes: Lanes, title: str = "Timeline", width: int = 640, end: float | None = None) -> str:
    """The lanes as one <svg> element (a string) with a <title> for screen readers."""
    row_h, left, right, top, bottom = 26, 150, 16, 36, 40
    marks_h = 16 * len(lanes.marks)
    height = top + row_h * max(1, len(lanes.rows)) + bottom + marks_h
    plot_w = width - left - right
    end = max(lanes.end if end is None else end, 1e-9)

    def px(t: float) -> float:
        return left + t / end * plot_w

    plot_bottom = top + row_h * max(1, len(lanes.rows))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
        f'style="max-width:{width}px;font:12px sans-serif" role="img">',
        f"<title>{escape(title)}: {lanes.attempts()} attempts, {len(lanes.failed())} did not finish</title>",
        f'<text x="4" y="20" fill="{INK}" font-weight="bold">{escape(title)}</text>',
    ]
    for tick in nice_ticks(0.0, end):
        x = px(tick)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{plot_bottom}" stroke="{FAINT}"/>')
        out.append(
            f'<text x="{x:.1f}" y="{plot_bottom + 16}" text-anchor="middle" fill="{INK}">{tick:g}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{plot_bottom + 32}" text-anchor="middle" fill="{INK}">'
        "virtual time (s)</text>"
    )
    for index, row in enumerate(lanes.rows):
        y = top + index * row_h
        out.append(
            f'<text x="{left - 6}" y="{y + 17}" text-anchor="end" fill="{INK}">{escape(row.name)}</text>'
        )
        for bar in row.bars:
            x0, x1 = px(bar.start), max(px(bar.end), px(bar.start) + 3)
            dash = "2 2" if bar.reconstruction else "5 3" if bar.retry else ""
            out.append(
                f'<rect x="{x0:.1f}" y="{y + 4}" width="{x1 - x0:.1f}" height="{row_h - 8}" rx="3" '
                f'fill="{COLOUR[bar.kind]}" fill-opacity="0.75" stroke="{INK}" stroke-width="1.2"'
                + (f' stroke-dasharray="{dash}"' if dash else "")
                + f"><title>{escape(bar.label)}: {escape(bar.outcome or bar.kind)}</title></rect>"
            )
            label = bar.label.split("#", 1)[-1]
            if x1 - x0 > 7 * len(label) + 6:
                out.append(f'<text x="{x0 + 4:.1f}" y="{y + 17}" fill="{INK}">{escape("#" + label)}</text>')
            if END_LETTER[bar.kind]:
                out.append(
                    f'<text x="{x1 + 2:.1f}" y="{y + 17}" fill="{INK}" font-weight="bold">'
                    f"{END_LETTER[bar.kind]}</text>"
                )
    for index, mark in enumerate(lanes.marks):
        x = px(mark.time)
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{plot_bottom}" stroke="{INK}" stroke-dasharray="4 3"/>'
        )
        out.append(
            f'<text x="{min(x, width - 200):.1f}" y="{plot_bottom + 48 + 16 * index}" fill="{INK}">'
            f"{escape(mark.label)} at {mark.time:g} s</text>"
        )
    out.append("</svg>")
    return "\n".join(out)
