"""The site's lab installs a package when a cell's own code imports it (Pyodide reads the cell's
import lines), not when a module the cell imports needs it. A notebook that shows a course
widget must therefore import ipywidgets itself, in that cell or an earlier one; the Pyodide test
cannot see this, because it installs every wheel up front."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lesson_files import code_cells, lesson_sources

WIDGETS = re.compile(r"^\s*(from\s+faultlines\.widgets\b|import\s+faultlines\.widgets\b)", re.M)
IPYWIDGETS = re.compile(r"^\s*(import\s+ipywidgets\b|from\s+ipywidgets\b)", re.M)


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_widget_cells_import_ipywidgets_themselves(source: Path):
    seen_ipywidgets = False
    for index, (code, _tags) in enumerate(code_cells(source), start=1):
        seen_ipywidgets = seen_ipywidgets or bool(IPYWIDGETS.search(code))
        if WIDGETS.search(code):
            assert seen_ipywidgets, (
                f"{source.name}, code cell {index}: imports faultlines.widgets without importing "
                "ipywidgets in that cell or before it; in the site's lab it fails with "
                "\"No module named 'ipywidgets'\". Add `import ipywidgets` to the cell."
            )
