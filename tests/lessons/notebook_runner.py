"""Run one lesson notebook's code cells in one namespace, then drive every widget it made.

The same file runs in CPython (as a script: cells as JSON on stdin, a JSON report on stdout) and
inside Pyodide under Node (imported, `run(cells)` per notebook), so both interpreters execute
exactly the same steps. Stdlib only at import time: ipywidgets is imported only if a notebook
made widgets.

A cell is `[source, tags]`. Cells tagged `skip-execution` are not run (as at build time); a cell
tagged `raises-exception` may raise. With `excuse_matplotlib`, a cell that imports matplotlib is
not run (Pyodide fetches matplotlib from its CDN, which these tests never reach).

Widgets: after the last cell, every interactive control the notebook created (sliders, dropdowns,
checkboxes, ...) is set to other values, as a learner would with the mouse or keyboard. Each
change runs the notebook's observers; an observer that raises fails the notebook, and a control
whose changes never alter any other widget's value is reported as not reacting.

Charts: every SVG a widget shows, as its text's smallest size and the width it is drawn for
(its viewBox), so that the tests can say how large that text shows in a phone's lab.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import traceback
from typing import Any

SKIP_TAG = "skip-execution"
RAISES_TAG = "raises-exception"
MATPLOTLIB = re.compile(r"^\s*(import|from)\s+matplotlib\b", re.M)
MAX_VALUES_PER_CONTROL = 4  # each value re-runs the widget's simulation: keep the step count bounded


def _widget_registry() -> dict[Any, Any] | None:
    widgets = sys.modules.get("ipywidgets")
    if widgets is None:
        return None
    return widgets.widgets.widget._instances


def _is_control(widget: Any) -> bool:
    """A widget a learner sets (slider, dropdown, checkbox), not one that shows a result."""
    import ipywidgets

    if isinstance(widget, (ipywidgets.Label, ipywidgets.HTML, ipywidgets.HTMLMath, ipywidgets.Output)):
        return False
    return (
        "value" in widget.trait_names()
        and not getattr(widget, "disabled", False)
        and bool(_candidates(widget))
    )


def _candidates(widget: Any) -> list[Any]:
    """Values a learner could pick, other than the current one."""
    current = widget.value
    if hasattr(widget, "options") and hasattr(widget, "index"):  # Dropdown, RadioButtons, ToggleButtons
        values = [o[1] if isinstance(o, tuple) else o for o in widget.options]
    elif isinstance(current, bool):
        values = [not current]
    elif isinstance(current, (int, float)) and hasattr(widget, "min") and hasattr(widget, "max"):
        lo, hi = widget.min, widget.max
        values = [hi, lo, lo + (hi - lo) / 3]
        if isinstance(current, int):
            values = [int(round(v)) for v in values]
        step = getattr(widget, "step", None)
        if step and not isinstance(current, int):
            values = [lo + round((v - lo) / step) * step for v in values]
    else:
        return []
    return [v for v in dict.fromkeys(values) if v != current][:MAX_VALUES_PER_CONTROL]


def _outputs(registry: dict[Any, Any], control: Any) -> dict[str, Any]:
    shown = {}
    for model_id, widget in list(registry.items()):
        if widget is control:
            continue
        if "value" in widget.trait_names():
            shown[model_id] = widget.value
    return shown


def exercise_widgets() -> list[dict[str, Any]]:
    registry = _widget_registry()
    if registry is None:
        return []
    report = []
    for widget in [w for w in list(registry.values()) if _is_control(w)]:
        original = widget.value
        tried, reacted = [], False
        for value in _candidates(widget):
            before = _outputs(registry, widget)
            widget.value = value  # runs the observers; an exception here fails the notebook
            tried.append(repr(value))
            reacted = reacted or _outputs(registry, widget) != before
        widget.value = original
        report.append(
            {
                "control": f"{type(widget).__name__} {widget.description!r}",
                "tried": tried,
                "reacted": reacted,
            }
        )
    return report


SVG = re.compile(r"<svg\b.*?</svg>", re.S)
VIEWBOX_WIDTH = re.compile(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ')
# The debugger's lanes are drawn at their own width (their viewBox's), never narrower: they
# scroll sideways in their box instead (faultlines/debugger/lanes.render).
SCROLLED_LANES = re.compile(r'<div class="fl-dbg-lanes"[^>]*>\s*$')
FONT_SIZE = re.compile(r'font(?:-size)?[:=]\s*"?([0-9.]+)(?:px)?')


def chart_text() -> list[dict[str, Any]]:
    """Each SVG in a widget's value: its drawn width and its smallest text, in its own units."""
    registry = _widget_registry()
    charts = []
    for widget in list((registry or {}).values()):
        value = getattr(widget, "value", None)
        if not isinstance(value, str) or "<svg" not in value:
            continue
        for found in SVG.finditer(value):
            svg = found.group(0)
            width = VIEWBOX_WIDTH.search(svg)
            sizes = [float(size) for size in FONT_SIZE.findall(svg)]
            if width and sizes:
                scrolls = bool(SCROLLED_LANES.search(value[: found.start()]))
                charts.append(
                    {
                        "viewbox": float(width.group(1)),
                        "smallest": min(sizes),
                        "title": _title(svg),
                        "min_shown": float(width.group(1)) if scrolls else 0,
                    }
                )
    return charts


def _title(svg: str) -> str:
    found = re.search(r"<title>(.*?)</title>", svg, re.S)
    return found.group(1)[:60] if found else ""


def _reset() -> None:
    """A fresh interpreter state for the next notebook (Pyodide runs them all in one)."""
    registry = _widget_registry()
    if registry is not None:
        registry.clear()
    miniray = sys.modules.get("miniray")
    if miniray is not None and miniray.is_initialized():
        miniray.shutdown()


def run(cells: list[list[Any]], excuse_matplotlib: bool = False) -> dict[str, Any]:
    """Execute the cells; return {ran, skipped, excused, failed: {cell, source, error} | None, widgets}."""
    _reset()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    report: dict[str, Any] = {
        "ran": 0,
        "skipped": 0,
        "excused": 0,
        "failed": None,
        "widgets": [],
        "charts": [],
    }
    printed = io.StringIO()
    for index, (source, tags) in enumerate(cells, start=1):
        if SKIP_TAG in tags:
            report["skipped"] += 1
            continue
        if excuse_matplotlib and MATPLOTLIB.search(source):
            report["excused"] += 1
            continue
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(source, f"<cell {index}>", "exec"), namespace)
            report["ran"] += 1
        except BaseException:
            if RAISES_TAG in tags:
                report["ran"] += 1
                continue
            report["failed"] = {"cell": index, "source": source, "error": traceback.format_exc()}
            return report
    try:
        with contextlib.redirect_stdout(printed):
            report["widgets"] = exercise_widgets()
            report["charts"] = chart_text()
    except BaseException:
        report["failed"] = {"cell": "widgets", "source": "", "error": traceback.format_exc()}
    finally:
        _reset()
    report["stdout_chars"] = len(printed.getvalue())
    return report


if __name__ == "__main__":
    result = run(json.load(sys.stdin), excuse_matplotlib="--excuse-matplotlib" in sys.argv)
    print("NOTEBOOK-REPORT " + json.dumps(result))
