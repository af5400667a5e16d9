"""Every lesson notebook runs top to bottom in CPython, and its widgets react when driven.

Each notebook runs in a fresh interpreter with the repository on sys.path, as the site build
and a learner's `pip install` give it (tests/lessons/notebook_runner.py does the running).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lesson_files import HERE, REPO, code_cells, describe_failure, lesson_sources, uses_widgets

MARKER = "NOTEBOOK-REPORT "
TIMEOUT_S = 300


def run_in_cpython(source: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO), MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, str(HERE / "notebook_runner.py")],
        input=json.dumps(code_cells(source)),
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=TIMEOUT_S,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
    assert lines, (
        f"{source.name}: the runner reported nothing (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    )
    return json.loads(lines[-1][len(MARKER) :])


def test_there_are_lessons():
    assert lesson_sources(), "no lesson notebooks found in lessons/"


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_notebook_runs_in_cpython(source: Path):
    report = run_in_cpython(source)
    assert report["failed"] is None, describe_failure(source.name, "CPython", report)
    assert report["ran"] > 0
    if uses_widgets(source):
        assert report["widgets"], f"{source.name} makes widgets, but none was found to drive in CPython"
    dead = [w["control"] for w in report["widgets"] if w["tried"] and not w["reacted"]]
    assert not dead, f"{source.name}: these controls changed nothing when moved: {dead}"


# How wide the lab shows a widget's output on a 390 px phone: the notebook fills the screen and
# its prompts fold away. Measured in Chromium by tests/browser/test_site_lab_widgets.py, which
# fails if it is ever narrower.
PHONE_OUTPUT_PX = 348
MIN_TEXT_PX = 8


def _shown_width(chart: dict) -> float:
    """How wide a phone's lab shows a chart: the output's width, or its drawn width if less; the
    debugger's lanes keep a minimum width and scroll sideways instead."""
    return min(chart["viewbox"], max(PHONE_OUTPUT_PX, chart["min_shown"]))


@pytest.mark.parametrize("source", [s for s in lesson_sources() if uses_widgets(s)], ids=lambda p: p.stem)
def test_every_widget_chart_shows_its_text_at_8px_on_a_phone(source: Path):
    """Issue 24: lesson 5's chart showed its labels at about 7 px in a phone's lab. Every chart a
    widget draws (after its controls were moved, as the runner does) has its smallest text at
    8 px or more when the lab shows it PHONE_OUTPUT_PX wide (or at its drawn width, if less): the
    check build-time figures have, applied to the widgets' own SVG."""
    report = run_in_cpython(source)
    assert report["failed"] is None, describe_failure(source.name, "CPython", report)
    assert report["charts"], f"{source.name}: its widget drew no chart the runner could find"
    shown = {
        chart["title"]: round(chart["smallest"] * _shown_width(chart) / chart["viewbox"], 2)
        for chart in report["charts"]
    }
    small = {title: px for title, px in shown.items() if px < MIN_TEXT_PX}
    assert not small, f"{source.name}: chart text under {MIN_TEXT_PX} px on a phone: {small}"
