"""The marks above the lanes' rows: the line and label of the moment an invariant broke, and,
when the run is compared with a passing one, the line and label where the two runs part.

The band above the rows has two lines of text. The broken invariant's label takes the upper
one, beside its line. "runs differ here" goes on the lower line, on the side of its own line
that the broken invariant's line does not cross (the two are often a few events apart, and
issue 32 found the label under that line); where neither side is clear it takes the upper
line, clear of the other label; failing both, it is written on paper over the line.
"""

from __future__ import annotations

from html import escape

from faultlines.widgets.statechart import Plot
from faultlines.widgets.svgplot import INK, PALETTE

BAD = "#b3261e"  # the light theme's; debugger.css sets the dark one (.fl-dbg-bad-ink)
DIFFER = "runs differ here"
TEXT_PX, BOLD_PX = 6.6, 7.6  # a character of 12 px sans-serif, and of its bold
UPPER, LOWER = 18, 3  # the two lines' baselines, above the plot's top


def _violation_span(plot: Plot, index: int, label: str) -> tuple[float, float, float, str]:
    """The broken invariant's line x, its label's left and right ends, and the label's anchor."""
    x = plot.px(index + 0.5)
    width = BOLD_PX * len(f"✘ {label}")
    if x < plot.left + plot.width * 0.7:
        start = min(x + 4, plot.left + plot.width - 4)
        return x, start, start + width, "start"
    end = min(x + 4, plot.left + plot.width - 4)
    return x, end - width, end, "end"


def violation(plot: Plot, index: int, label: str) -> list[str]:
    x, left, right, anchor = _violation_span(plot, index, label)
    at = left if anchor == "start" else right
    return [
        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{plot.top - 16:.1f}" y2="{plot.top + plot.height:.1f}" '
        f'stroke="{BAD}" class="fl-dbg-bad-line" stroke-width="2.5"><title>{escape(label)}</title></line>'
        f'<text x="{at:.1f}" y="{plot.top - UPPER:.1f}" text-anchor="{anchor}" fill="{BAD}" '
        f'class="fl-dbg-bad-ink" font-weight="bold">✘ {escape(label)}</text>'
    ]


def differ_place(plot: Plot, index: int, broken: int | None, label: str) -> tuple[str, float, bool]:
    """Where "runs differ here" goes: ("lower" | "upper", its left end, on paper or not)."""
    x = plot.px(index + 0.5)
    width = TEXT_PX * len(DIFFER)
    lo, hi = 0.0, plot.left + plot.width + 12
    sides = [x + 4, x - 4 - width]  # right of its line, then left of it
    if broken is None:
        return "lower", next((s for s in sides if lo <= s and s + width <= hi), sides[0]), False
    bx, b_left, b_right, _ = _violation_span(plot, broken, label)
    for left in sides:  # the lower line: clear of the broken invariant's line
        if lo <= left and left + width <= hi and not left - 2 <= bx <= left + width + 2:
            return "lower", left, False
    for left in sides:  # the upper line: clear of the broken invariant's label
        if lo <= left and left + width <= hi and (left + width < b_left - 6 or left > b_right + 6):
            return "upper", left, False
    return "lower", sides[0], True


def differ(plot: Plot, index: int, broken: int | None, label: str) -> list[str]:
    """The line where the runs part and its label, hidden with the passing run's bars."""
    x = plot.px(index + 0.5)
    line, left, paper = differ_place(plot, index, broken, label)
    y = plot.top - (UPPER if line == "upper" else LOWER)
    out = [
        '<g class="fl-dbg-ghost fl-dbg-differ" visibility="hidden">',
        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y - 10:.1f}" y2="{plot.top + plot.height:.1f}" '
        f'stroke="{PALETTE[0]}" stroke-width="2" class="fl-dbg-ghost-line"/>',
    ]
    if paper:
        out.append(
            f'<rect x="{left - 2:.1f}" y="{y - 11:.1f}" width="{TEXT_PX * len(DIFFER) + 4:.1f}" height="14" '
            'fill="var(--jp-layout-color0, #fff)"/>'
        )
    out += [f'<text x="{left:.1f}" y="{y:.1f}" fill="{INK}">{DIFFER}</text>', "</g>"]
    return out
