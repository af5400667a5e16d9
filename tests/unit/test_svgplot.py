"""The widgets' SVG chart: well-formed, deterministic, and drawing what it is given."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from faultlines.widgets import svgplot

NS = "{http://www.w3.org/2000/svg}"


def _chart() -> svgplot.Chart:
    return svgplot.Chart(
        title="Cost <of> interval",
        xlabel="interval (h)",
        ylabel="overhead (%)",
        series=[
            svgplot.Series("model", [0.5, 1, 2], [3.0, 2.0, 2.5]),
            svgplot.Series("measured", [1, 2], [2.1, 2.4], line=False),
        ],
        rules=[svgplot.Marker(0.9, "optimum")],
    )


def test_renders_well_formed_svg_with_each_series_and_rule():
    svg = svgplot.render(_chart())
    root = ET.fromstring(svg)
    assert root.find(f"{NS}title").text == "Cost <of> interval"
    assert len(root.findall(f"{NS}polyline")) == 1  # the markers-only series draws no line
    assert len(root.findall(f"{NS}circle")) == 2
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert {"model", "measured", "optimum", "interval (h)"} <= set(texts)


def test_same_chart_same_bytes():
    assert svgplot.render(_chart()) == svgplot.render(_chart())


def test_nice_ticks_are_round_and_cover_the_range():
    assert svgplot.nice_ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    ticks = svgplot.nice_ticks(0.13, 0.87)
    assert ticks[0] >= 0.13 and ticks[-1] <= 0.87 and len(ticks) >= 3
