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
