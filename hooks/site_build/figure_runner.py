"""Child process that renders figure scripts, each once per colour scheme:
`python figure_runner.py OUT_DIR SCRIPT...` writes OUT_DIR/<name>-light.svg and <name>-dark.svg.

A figure script defines three functions, so what it plots is kept apart from how it is drawn:

- `data()`: the numbers the figure plots, computed by the lesson's own code (a dataclass);
- `describe(data) -> (alt text, caption)`;
- `draw(data, ink) -> matplotlib Figure`, with `ink` one of faultlines.figures.ink.INKS.

The data are computed once and drawn with each ink, so the two schemes show the same numbers.
Runs in its own CPython (started by lesson_figures) so matplotlib never enters MkDocs, and so the
tests can render with the site venv's matplotlib from the dev venv, which does not have it. One
child renders several figures: importing matplotlib, numpy and miniray costs more than most
figures do. Each figure starts from matplotlib's defaults and draws on its own Figure (never
pyplot's global one), so nothing carries over from the figure before. Prints, as JSON on
stdout, {name: {"alt", "caption", "width_in", "height_in"}} or {name: {"error": traceback}}.
"""

from __future__ import annotations

import io
import json
import re
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
from matplotlib import cycler  # noqa: E402  (after the backend is chosen)
from matplotlib.figure import Figure  # noqa: E402

from faultlines.figures.ink import INKS, Ink  # noqa: E402

# Byte-identical output on every build: matplotlib's defaults rather than a user's
# matplotlibrc, element ids hashed from a fixed salt rather than random ones, and no creation
# date or creator line. Text stays <text> (selectable, and a fraction of the bytes of outlines).
RC = {"svg.hashsalt": "fault-lines", "svg.fonttype": "none"}
NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
# matplotlib names the SVG 1.1 DTD on w3.org. Browsers never fetch it, but a validating XML
# parser might, and SVG 2 has no DTD: drop it so the file names no other origin at all.
DOCTYPE = re.compile(rb"<!DOCTYPE svg[^>]*>\s*")
# Text sizes in points of the drawn figure. Figures are drawn about 5 inches (480 CSS px) wide,
# so 9 pt is 12 px drawn, and about 9 px in a 390 px phone's column: there the figure offers
# its enlarged view (docs/javascripts/figures.js), which shows its smallest text at 12 px.
FONT_PT = 9.5
SMALL_PT = 9


def rc_for(ink: Ink) -> dict[str, Any]:
    """matplotlib settings that draw on the scheme's page: its background, its text colours."""
    return {
        "figure.facecolor": ink.background,
        "axes.facecolor": ink.background,
        "savefig.facecolor": ink.background,
        "text.color": ink.text,
        "axes.labelcolor": ink.text,
        "axes.edgecolor": ink.muted,
        "axes.titlecolor": ink.text,
        "xtick.color": ink.muted,
        "ytick.color": ink.muted,
        "xtick.labelcolor": ink.text,
        "ytick.labelcolor": ink.text,
        "grid.color": ink.grid,
        "legend.frameon": False,
        "legend.labelcolor": ink.text,
        "axes.prop_cycle": cycler(color=list(ink.series)),
        "font.size": FONT_PT,
        "axes.titlesize": FONT_PT + 0.5,
        "axes.labelsize": FONT_PT,
        "xtick.labelsize": SMALL_PT,
        "ytick.labelsize": SMALL_PT,
        "legend.fontsize": SMALL_PT,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }


def _function(made: dict[str, Any], name: str) -> Any:
    function = made.get(name)
    if not callable(function):
        raise TypeError(f"the script defines no {name}() function (a figure needs data, describe, draw)")
    return function


def render(script: str, out_dir: str) -> dict[str, Any]:
    name = Path(script).stem
    made = runpy.run_path(script, run_name="__figure__")
    data = _function(made, "data")()
    texts = _function(made, "describe")(data)
    if not (isinstance(texts, tuple) and len(texts) == 2):
        raise TypeError("describe() must return (alt text, caption)")
    alt, caption = texts
    for what, text in (("alt text", alt), ("caption", caption)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"describe() returned an empty {what}: every figure needs one")
    sizes = set()
    for ink in INKS:
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(RC | rc_for(ink))
        fig = _function(made, "draw")(data, ink)
        if not isinstance(fig, Figure):
            raise TypeError(f"draw() returned {type(fig).__name__}, not a matplotlib Figure")
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata=NO_METADATA)
        svg = DOCTYPE.sub(b"", buffer.getvalue(), count=1)
        Path(out_dir, f"{name}-{ink.scheme}.svg").write_bytes(svg)
        sizes.add(tuple(float(x) for x in fig.get_size_inches()))
    if len(sizes) != 1:
        raise ValueError(f"the schemes' figures differ in size: {sorted(sizes)}")
    [(width, height)] = sizes
    return {"alt": alt, "caption": caption, "width_in": width, "height_in": height}


def main(out_dir: str, scripts: list[str]) -> None:
    results: dict[str, dict[str, Any]] = {}
    for script in scripts:
        try:
            results[Path(script).stem] = render(script, out_dir)
        except Exception:  # one figure's error is reported under its name; the others still render
            results[Path(script).stem] = {"error": traceback.format_exc()}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
