"""The lesson notebooks the tests run: every jupytext source in lessons/, as the site build sees them.

Named uniquely (not conftest) so the test modules and the Pyodide driver import the same list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jupytext

from hooks.site_build import (
    lesson_notebooks,  # the build's own rule for what is a notebook
    lesson_numbers,  # noqa: F401  (the build's placeholder filler, for test_page_numbers)
)

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def lesson_sources() -> list[Path]:
    """Every lesson notebook source, e.g. lessons/01_mini_runtime.py (exercises are not lessons)."""
    return [p for p in lesson_notebooks._source_files(REPO) if p.parent.name == "lessons"]


def code_cells(source: Path) -> list[list[Any]]:
    """[[source, tags], ...] for the notebook's code cells, in order."""
    notebook = jupytext.read(source)
    return [
        [cell.source, list(cell.metadata.get("tags", []))]
        for cell in notebook.cells
        if cell.cell_type == "code"
    ]


def describe_failure(name: str, where: str, report: dict[str, Any]) -> str:
    failed = report.get("failed") or {}
    return (
        f"{name} fails in {where} at cell {failed.get('cell')}:\n{failed.get('source', '')}\n\n"
        f"{failed.get('error', report)}"
    )


def uses_widgets(source: Path) -> bool:
    text = source.read_text(encoding="utf-8")
    return "ipywidgets" in text or "faultlines.widgets" in text
