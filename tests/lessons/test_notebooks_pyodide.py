"""Every lesson notebook's cells also run in Pyodide (under Node), widgets included.

Pyodide is npm pyodide (as in tests/pyodide), with the same pure-Python wheels the site's kernel
boots from (playground/kernel-wheels.txt: ipywidgets, traitlets, IPython, ...), so a notebook
that works here works in the lab as far as Python goes. Only cells that import matplotlib are
excused: Pyodide's matplotlib comes from its CDN. All notebooks run in one interpreter, one
after another, each in a fresh namespace (tests/lessons/notebook_runner.py).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest
from lesson_files import HERE, REPO, code_cells, describe_failure, lesson_sources, uses_widgets

from hooks.site_build import boot_split, kernel_dist

pytestmark = pytest.mark.pyodide

WHEELS = REPO / "build/wheels/pypi"  # filled by `make site` (hooks/site_build/kernel_dist.py)
TIMEOUT_S = 900


def _kernel_wheels(work: Path) -> Path:
    """The lab's wheels; fetched (hash-pinned, as the site build does) if no build made them yet.
    Only the pinned ones: the download folder keeps wheels of older pins too."""
    requirements = REPO / "playground/kernel-wheels.txt"
    try:
        pinned = kernel_dist.pinned_wheels(requirements, WHEELS)
    except SystemExit:
        kernel_dist.fetch_pypi_wheels(requirements, WHEELS)
        pinned = kernel_dist.pinned_wheels(requirements, WHEELS)
    folder = work / "wheels"
    folder.mkdir()
    for wheel in pinned:
        shutil.copy2(wheel, folder / wheel.name)
    return folder


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory) -> dict:
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
            str(_kernel_wheels(work)),
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
    return report


@pytest.fixture(scope="module")
def pyodide_reports(pyodide_run) -> dict:
    return pyodide_run["notebooks"]


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_notebook_runs_in_pyodide(source: Path, pyodide_reports: dict):
    report = pyodide_reports[source.stem]
    assert report["failed"] is None, describe_failure(source.name, "Pyodide", report)
    assert report["ran"] > 0
    if uses_widgets(source):
        assert report["widgets"], f"{source.name} makes widgets, but none was found to drive in Pyodide"
    dead = [w["control"] for w in report["widgets"] if w["tried"] and not w["reacted"]]
    assert not dead, f"{source.name}: these controls changed nothing when moved in Pyodide: {dead}"


def _pack_modules(pack: Path) -> set[str]:
    raw = gzip.decompress(pack.read_bytes())
    (length,) = struct.unpack("<I", raw[:4])
    files = json.loads(raw[4 : 4 + length])["files"]
    return {name for path, _, _ in files if (name := boot_split.module_name(path))}


def test_what_the_lessons_import_comes_with_the_labs_first_download(pyodide_run):
    """Issue 24: a cold start downloads only the modules the kernel's start and the course's own
    code import (hooks/site_build/boot_split.py); the rest waits in a deferred pack, fetched when
    an import first needs it. Every module a lesson's cells and widgets import in Pyodide must be
    in the first download, or the learner would wait for that pack in the middle of a lesson."""
    pyodide_dir = REPO / "site/lite/static/pyodide"
    if not (pyodide_dir / "kernel-boot.mjs").is_file():
        pytest.skip("the site is not built: run `make site`")
    (pack,) = pyodide_dir.glob("boot-packages.*.pack.gz")
    first = _pack_modules(pack)
    with zipfile.ZipFile(pyodide_dir / "python_stdlib.zip") as stdlib:
        first |= {name for path in stdlib.namelist() if (name := boot_split.module_name(path))}
    # Loaded from their own wheels when a cell imports them (not boot packages).
    wheels = boot_split.LESSON_PACKAGES + ("widgetsnbextension",)
    missing = []
    for path in pyodide_run["imported"]:
        for root in ("/site-packages/", ".zip/"):
            if root in path:
                name = boot_split.module_name(path.split(root, 1)[1])
                if name and name.split(".")[0] not in wheels and name not in first:
                    missing.append(name)
    assert pyodide_run["imported"] and not missing, missing
