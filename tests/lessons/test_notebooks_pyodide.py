"""Every lesson notebook's cells also run in Pyodide (under Node), widgets included.

Pyodide is npm pyodide (as in tests/pyodide), with the same pure-Python wheels the site's kernel
boots from (playground/kernel-wheels.txt: ipywidgets, traitlets, IPython, ...), so a notebook
that works here works in the lab as far as Python goes. Only cells that import matplotlib are
excused: Pyodide's matplotlib comes from its CDN. All notebooks run in one interpreter, one
after another, each in a fresh namespace (tests/lessons/notebook_runner.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from lesson_files import HERE, REPO, code_cells, describe_failure, lesson_sources, uses_widgets

from hooks.site_build import kernel_dist

pytestmark = pytest.mark.pyodide

WHEELS = REPO / "build/wheels/pypi"  # filled by `make site` (hooks/site_build/kernel_dist.py)
TIMEOUT_S = 900


def _kernel_wheels() -> Path:
    """The lab's wheels; fetched (hash-pinned, as the site build does) if no build made them yet."""
    if not list(WHEELS.glob("ipywidgets-*.whl")):
        kernel_dist.fetch_pypi_wheels(REPO / "playground/kernel-wheels.txt", WHEELS)
    return WHEELS


@pytest.fixture(scope="module")
def pyodide_reports(tmp_path_factory) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the Pyodide notebook test needs Node.js")
    work = tmp_path_factory.mktemp("notebooks")
    notebooks = [{"name": p.stem, "cells": code_cells(p)} for p in lesson_sources()]
    (work / "notebooks.json").write_text(json.dumps(notebooks))
    proc = subprocess.run(
        [
            node,
            str(HERE / "run_notebooks_pyodide.mjs"),
            str(work / "notebooks.json"),
            str(work / "report.json"),
            str(_kernel_wheels()),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=dict(os.environ),
    )
    assert proc.returncode == 0 and (work / "report.json").exists(), (
        f"Pyodide did not run the notebooks (exit {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    report = json.loads((work / "report.json").read_text())
    assert report["platform"] == "emscripten", report["platform"]
    return report["notebooks"]


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_notebook_runs_in_pyodide(source: Path, pyodide_reports: dict):
    report = pyodide_reports[source.stem]
    assert report["failed"] is None, describe_failure(source.name, "Pyodide", report)
    assert report["ran"] > 0
    if uses_widgets(source):
        assert report["widgets"], f"{source.name} makes widgets, but none was found to drive in Pyodide"
    dead = [w["control"] for w in report["widgets"] if w["tried"] and not w["reacted"]]
    assert not dead, f"{source.name}: these controls changed nothing when moved in Pyodide: {dead}"
