"""Turn the jupytext sources in lessons/ (and exercises/) into the notebooks the site ships.

Each notebook carries the sha256 of its source in metadata.fault_lines.source_sha256; the
lesson page embeds the same value, so the page can tell when a learner's saved copy (kept in
the browser) was made from an older version of the notebook. Lessons are also executed with
CPython at build time, so a lesson that fails breaks the build instead of a learner's session.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import jupytext

NOTEBOOK_DIRS = ("lessons", "exercises")
# Cells tagged like this are shown but not run at build time (e.g. ones that need the browser).
SKIP_TAG = "skip-execution"
# Cells whose failure is the point of the lesson.
RAISES_TAG = "raises-exception"


@dataclass(frozen=True)
class ShippedNotebook:
    source: Path  # the jupytext file in the repo
    path: str  # where it lives in the JupyterLite contents, e.g. "lessons/01_mini_runtime.ipynb"
    sha256: str  # of the source file; stored in the notebook and on its lesson page


def _source_files(repo: Path) -> list[Path]:
    found = []
    for folder in NOTEBOOK_DIRS:
        for path in sorted((repo / folder).glob("*")):
            if path.suffix == ".ipynb" or (path.suffix in (".py", ".md") and _is_jupytext(path)):
                found.append(path)
    return found


def _is_jupytext(path: Path) -> bool:
    head = path.read_text(encoding="utf-8")[:2000]
    return "jupytext" in head or "# %%" in head


def write_notebooks(repo: Path, contents_dir: Path) -> dict[str, ShippedNotebook]:
    """Write every notebook under contents_dir; return them keyed by stem ("01_mini_runtime")."""
    shipped: dict[str, ShippedNotebook] = {}
    for source in _source_files(repo):
        digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
        notebook = jupytext.read(source)
        notebook.metadata["fault_lines"] = {"source_sha256": digest}
        notebook.metadata["kernelspec"] = {
            "name": "python",
            "display_name": "Python (Pyodide)",
            "language": "python",
        }
        notebook.metadata.pop("jupytext", None)
        rel = f"{source.parent.name}/{source.stem}.ipynb"
        target = contents_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        jupytext.write(notebook, target, fmt="ipynb")
        if source.stem in shipped:
            raise SystemExit(f"two notebooks named {source.stem}: {shipped[source.stem].source}, {source}")
        shipped[source.stem] = ShippedNotebook(source, rel, digest)
    return shipped


# Runs in a child CPython with the repo on sys.path: each code cell in order, one namespace.
_RUNNER = r"""
import json, sys, traceback
cells = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
for index, (code, may_raise) in enumerate(cells):
    try:
        exec(compile(code, f"<cell {index + 1}>", "exec"), namespace)
    except BaseException:
        if may_raise:
            continue
        print(f"cell {index + 1} failed:\n{code}\n", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def execute_lessons(repo: Path, notebooks: dict[str, ShippedNotebook], timeout: float = 120) -> None:
    """Run each lesson with CPython; raise with the failing cell and traceback if one fails."""
    # Same miniray as the one the browser gets (see kernel_dist.miniray_source).
    env = dict(os.environ, PYTHONPATH=os.environ.get("MINIRAY_SRC") or str(repo), MPLBACKEND="Agg")
    for shipped in notebooks.values():
        if not shipped.path.startswith("lessons/"):
            continue  # exercises may be left for the learner to finish
        notebook = jupytext.read(shipped.source)
        cells = [
            (cell.source, RAISES_TAG in cell.metadata.get("tags", []))
            for cell in notebook.cells
            if cell.cell_type == "code" and SKIP_TAG not in cell.metadata.get("tags", [])
        ]
        result = subprocess.run(
            [sys.executable, "-c", _RUNNER],
            input=json.dumps(cells),
            capture_output=True,
            text=True,
            env=env,
            cwd=repo,
            timeout=timeout,
        )
        if result.returncode:
            raise SystemExit(f"lesson notebook {shipped.source} fails under CPython:\n{result.stderr}")
