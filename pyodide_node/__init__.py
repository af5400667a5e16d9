"""Running repository Python inside Pyodide under Node, the one way the benches and the Pyodide
tests do it (`run_script.mjs` loads npm pyodide from node_modules and the repository's code)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUN_SCRIPT = REPO / "pyodide_node" / "run_script.mjs"


def missing() -> str | None:
    """Why Pyodide cannot run here (no node, no npm pyodide), or None when it can."""
    if shutil.which("node") is None:
        return "needs node on PATH"
    if not (REPO / "node_modules/pyodide/pyodide.mjs").exists():
        return "needs node_modules/pyodide: make node-deps"
    return None


def command(script: str, *args: str, packages: tuple[str, ...] = ()) -> list[str]:
    """The command that runs `script` (a path relative to the repository) in Pyodide, with the
    repository's `packages` (folders such as "faultlines", "exercises") importable beside miniray."""
    node = shutil.which("node") or "node"
    extra = [flag for package in packages for flag in ("--with", package)]
    return [node, str(RUN_SCRIPT), *extra, script, *args]


def run(script: str, *args: str, packages: tuple[str, ...] = (), timeout: float | None = None):
    """Run `script` in Pyodide from the repository root; the CompletedProcess (text output)."""
    return subprocess.run(
        command(script, *args, packages=packages), cwd=REPO, capture_output=True, text=True, timeout=timeout
    )
