"""Lesson 11's widget: push the object store past its capacity and watch read latency jump.

It starts from seed 001's worked number (a 30 GB store holding 28 GB of 2 GB blocks, one more
4 GB block, a 500 MB/s disk, 50 readers). The curve is the arithmetic across every fill level;
the marked point is the learner's setting, run on miniray and read back through its tools.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..stories import spill
from . import svgplot


def chart_for(inputs: spill.SpillInputs, measured: spill.SpillResult) -> svgplot.Chart:
    curve = spill.sweep(inputs)
    xs = [r.inputs.live_gb for r in curve]
    return svgplot.Chart(
        title=f"{inputs.readers} readers of the oldest block, after one more {inputs.extra_gb:g} GB block",
        xlabel=f"GB live in a {inputs.store_gb:g} GB store before the new block",
        ylabel="disk time, all readers (s)",
        series=[
            svgplot.Series("arithmetic", xs, [r.disk_seconds for r in curve], markers=True),
            svgplot.Series("miniray run", [inputs.live_gb], [measured.disk_seconds], line=False),
        ],
        rules=[svgplot.Marker(inputs.capacity_gb - inputs.extra_gb, "last fit")],
    )


def rows(predicted: spill.SpillResult, measured: spill.SpillResult) -> list[tuple[str, str, str]]:
    def both(attr: str, fmt: str) -> tuple[str, str]:
        return format(getattr(predicted, attr), fmt), format(getattr(measured, attr), fmt)

    return [
        ("store fill before the block (%)", *both("fill_before_pct", ".1f")),
        ("store fill after (%)", *both("fill_after_pct", ".1f")),
        ("spilled to disk (GB)", *both("spilled_gb", "g")),
        ("one read of the oldest block (s)", *both("read_s", "g")),
        ("disk time, all readers (s)", *both("disk_seconds", "g")),
        (
            f"wall time on {predicted.inputs.cpus} CPUs (s; miniray reads in parallel)",
            *both("elapsed_s", "g"),
        ),
    ]


def table_html(predicted: spill.SpillResult, measured: spill.SpillResult) -> str:
    head = "<tr><th></th><th style='padding:0 1em'>arithmetic</th><th>miniray run</th></tr>"
    body = "".join(
        f"<tr><th style='text-align:left'>{escape(k)}</th><td style='text-align:right;padding:0 1em'>{p}</td>"
        f"<td style='text-align:right'>{m}</td></tr>"
        for k, p, m in rows(predicted, measured)
    )
    return f"<table>{head}{body}</table>"


class SpillCliffWidget:
    """Sliders for the fill, the new block, the disk and the readers; `.box` is what a cell shows."""

    def __init__(self, **start: Any):
        import ipywidgets as w

        base = spill.SpillInputs(**start)
        self.store_gb, self.block_gb, self.cpus = base.store_gb, base.block_gb, base.cpus
        self.live = w.FloatSlider(
            value=base.live_gb, min=0, max=base.store_gb, step=base.block_gb, description="live GB"
        )
        self.extra = w.FloatSlider(value=base.extra_gb, min=1, max=8, step=1, description="new block GB")
        self.disk = w.IntSlider(
            value=int(base.disk_mb_s), min=100, max=3000, step=100, description="disk MB/s"
        )
        self.readers = w.IntSlider(value=base.readers, min=1, max=100, description="readers")
        self.chart = w.HTML()
        self.table = w.HTML()
        for control in (self.live, self.extra, self.disk, self.readers):
            control.observe(self.update, names="value")
        self.box = w.VBox([self.live, self.extra, self.disk, self.readers, self.chart, self.table])
        self.predicted: spill.SpillResult | None = None
        self.measured: spill.SpillResult | None = None
        self.update()

    def inputs(self) -> spill.SpillInputs:
        return spill.SpillInputs(
            store_gb=self.store_gb,
            live_gb=float(self.live.value),
            block_gb=self.block_gb,
            extra_gb=float(self.extra.value),
            disk_mb_s=float(self.disk.value),
            readers=int(self.readers.value),
            cpus=self.cpus,
        )

    def update(self, _change: Any = None) -> None:
        inputs = self.inputs()
        self.predicted = spill.predict(inputs)
        self.measured = spill.measure(inputs)
        self.chart.value = svgplot.render(chart_for(inputs, self.measured))
        self.table.value = table_html(self.predicted, self.measured)
