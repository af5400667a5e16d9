"""A tiny SVG line chart for the lesson widgets: pure Python, deterministic, theme-aware.

Colours come from JupyterLab's CSS variables with fallbacks, so the same SVG reads in a light or
dark notebook; series are told apart by dash pattern and marker as well as colour. The text sizes
are in CSS pixels of the drawn width: a chart shows at its drawn width or narrower, and its
labels shrink with it. WIDTH is chosen for a phone: at 390 px the lab's output is about 350 px
wide, where a 480-wide chart's 12 px labels show at 8.7 px (a 640-wide one's at 6.5 px).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

WIDTH = 480  # the drawn width of every widget chart (see above; tests/lessons checks the text)
# Okabe-Ito hues (distinguishable with the common colour-vision deficiencies).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "6 4", "2 3", "8 3 2 3")
INK = "var(--jp-ui-font-color1, currentColor)"
FAINT = "var(--jp-border-color2, #8888)"


@dataclass(frozen=True)
class Series:
    """One line (or, with ``line=False``, a set of markers) to draw."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    line: bool = True
    markers: bool = False
    errors: Sequence[float] | None = None  # half-heights of error bars, one per point


@dataclass(frozen=True)
class Marker:
    """A vertical rule at ``x`` with a short label, e.g. the optimum or the learner's choice."""

    x: float
    label: str


@dataclass
class Chart:
    title: str
    xlabel: str
    ylabel: str
    series: list[Series] = field(default_factory=list)
    rules: list[Marker] = field(default_factory=list)
    width: int = WIDTH
    height: int = 300
    ylim: tuple[float, float] | None = None


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.ceil(lo / step - 1e-9) * step
    ticks = []
    value = start
    while value <= hi + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _fmt(value: float) -> str:
    return f"{value:g}"


@dataclass(frozen=True)
class _Frame:
    """Where the plot area sits in the SVG, and the data ranges it maps to it."""

    left: float
    top: float
    plot_w: float
    plot_h: float
    x_lo: float
    x_hi: float
    y_lo: float
    y_hi: float

    def px(self, x: float) -> float:
        return self.left + (x - self.x_lo) / (self.x_hi - self.x_lo) * self.plot_w

    def py(self, y: float) -> float:
        y = min(max(y, self.y_lo), self.y_hi)
        return self.top + self.plot_h - (y - self.y_lo) / (self.y_hi - self.y_lo) * self.plot_h


def _frame(chart: Chart) -> _Frame:
    left, right, top, bottom = 64, 16, 36, 52
    xs = [x for s in chart.series for x in s.xs] + [r.x for r in chart.rules]
    ys = [y for s in chart.series for y in s.ys if math.isfinite(y)]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    y_lo, y_hi = chart.ylim or ((min(0.0, min(ys)), max(ys) * 1.05) if ys else (0.0, 1.0))
    if x_hi <= x_lo:
        x_hi = x_lo + 1.0
    if y_hi <= y_lo:
        y_hi = y_lo + 1.0
    return _Frame(left, top, chart.width - left - right, chart.height - top - bottom, x_lo, x_hi, y_lo, y_hi)


def _axes(f: _Frame, chart: Chart) -> list[str]:
    """Grid lines and tick labels, the axis labels and the plot's border."""
    out = []
    for tick in nice_ticks(f.y_lo, f.y_hi):
        y = f.py(tick)
        out.append(
            f'<line x1="{f.left}" x2="{f.left + f.plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="{FAINT}"/>'
        )
        out.append(
            f'<text x="{f.left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">{_fmt(tick)}</text>'
        )
    for tick in nice_ticks(f.x_lo, f.x_hi):
        out.append(
            f'<text x="{f.px(tick):.1f}" y="{f.top + f.plot_h + 18}" text-anchor="middle" '
            f'fill="{INK}">{_fmt(tick)}</text>'
        )
    out.append(
        f'<text x="{f.left + f.plot_w / 2}" y="{chart.height - 10}" text-anchor="middle" '
        f'fill="{INK}">{escape(chart.xlabel)}</text>'
    )
    out.append(
        f'<text transform="translate(16 {f.top + f.plot_h / 2}) rotate(-90)" text-anchor="middle" '
        f'fill="{INK}">{escape(chart.ylabel)}</text>'
    )
    out.append(
        f'<rect x="{f.left}" y="{f.top}" width="{f.plot_w}" height="{f.plot_h}" fill="none" stroke="{FAINT}"/>'
    )
    return out


def _rules(f: _Frame, chart: Chart) -> list[str]:
    out = []
    for rule in chart.rules:
        x = f.px(rule.x)
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{f.top}" y2="{f.top + f.plot_h}" stroke="{INK}" '
            'stroke-dasharray="3 3"/>'
        )
        out.append(f'<text x="{x + 4:.1f}" y="{f.top + 14}" fill="{INK}">{escape(rule.label)}</text>')
    return out


def _dash(index: int) -> str:
    dash = DASHES[index % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _series(f: _Frame, index: int, series: Series) -> list[str]:
    """One series: its line, its error bars, its markers, and its legend entry."""
    colour = PALETTE[index % len(PALETTE)]
    points = [(f.px(x), f.py(y)) for x, y in zip(series.xs, series.ys, strict=True) if math.isfinite(y)]
    out = []
    if series.line and len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"{_dash(index)}/>'
        )
    if series.errors is not None:
        for x, y, err in zip(series.xs, series.ys, series.errors, strict=True):
            if math.isfinite(y) and err > 0:
                out.append(
                    f'<line x1="{f.px(x):.1f}" x2="{f.px(x):.1f}" y1="{f.py(y - err):.1f}" '
                    f'y2="{f.py(y + err):.1f}" stroke="{colour}" stroke-width="1.5"/>'
                )
    if series.markers or not series.line:
        out += [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}" stroke="{INK}"/>' for x, y in points
        ]
    legend_x, legend_y = f.left + f.plot_w - 180, f.top + 16 + 16 * index
    out.append(
        f'<line x1="{legend_x}" x2="{legend_x + 22}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
        f'stroke="{colour}" stroke-width="2.5"{_dash(index)}/>'
    )
    out.append(f'<text x="{legend_x + 28}" y="{legend_y}" fill="{INK}">{escape(series.label)}</text>')
    return out


def render(chart: Chart) -> str:
    """The chart as one <svg> element (a string), with a <title> for screen readers."""
    f = _frame(chart)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {chart.width} {chart.height}" '
        f'width="100%" style="max-width:{chart.width}px;font:12px sans-serif" role="img">',
        f"<title>{escape(chart.title)}</title>",
        f'<text x="{f.left}" y="20" fill="{INK}" font-weight="bold">{escape(chart.title)}</text>',
    ]
    out += _axes(f, chart) + _rules(f, chart)
    for index, series in enumerate(chart.series):
        out += _series(f, index, series)
    out.append("</svg>")
    return "\n".join(out)
