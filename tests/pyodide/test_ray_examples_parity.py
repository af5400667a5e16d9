"""Parity: Ray's copied examples (tests/ray_examples) behave the same on miniray in Pyodide.

The course runs a learner's copy of a Ray example in the browser, so each one must end the
same way and print the same lines in Pyodide (under Node) as on miniray in CPython. All run in
one Pyodide interpreter (ray_examples_in_pyodide.py); each CPython run is its own process.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tests" / "ray_examples"))
from examples_harness import example_names, run_example  # noqa: E402

RESULT_MARKER = "RAY-EXAMPLES-RESULT "

# Where Pyodide itself cannot do what the example does. Node's Pyodide has no WebAssembly stack
# switching, so `asyncio.run(...)` fails there before miniray is involved; the lines printed up
# to that point must still match.
PYODIDE_STOPS = {"streaming_generator": "RuntimeError"}

pytestmark = pytest.mark.pyodide


def _pyodide_results() -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the Pyodide parity test needs Node.js (v20 here)")
    proc = subprocess.run(
        [
            node,
            str(REPO / "pyodide_node" / "run_script.mjs"),
            "--with",
            "tests/ray_examples",
            "tests/pyodide/ray_examples_in_pyodide.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith(RESULT_MARKER)]
    assert proc.returncode == 0 and lines, (
        f"Pyodide example run failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return json.loads(lines[-1][len(RESULT_MARKER) :])


def test_ray_examples_same_in_pyodide_and_cpython():
    in_pyodide = _pyodide_results()
    problems = []
    for name in example_names():
        cpython = run_example(sys.executable, "miniray", name)
        assert cpython.verdict is not None, f"{name} crashed on miniray in CPython:\n{cpython.output}"
        pyo = in_pyodide.get(name)
        if pyo is None:
            problems.append(f"{name}: did not run in Pyodide")
            continue
        stop = PYODIDE_STOPS.get(name)
        if stop is not None:
            if pyo["error"] != stop:
                problems.append(f"{name}: expected Pyodide to stop with {stop}, got {pyo['error']}")
            lines = pyo["lines"]
            cut = next((i for i, line in enumerate(lines) if line.startswith(f"{stop}:")), len(lines))
            if not lines[:cut] or lines[:cut] != cpython.lines[:cut]:
                problems.append(
                    f"{name}: before stopping, Pyodide printed other lines than CPython:\n"
                    + "\n".join(lines[:cut])
                )
            continue
        if pyo["passed"] != cpython.passed:
            problems.append(
                f"{name}: passed in CPython {cpython.passed}, in Pyodide {pyo['passed']} ({pyo['error']})"
            )
        if pyo["lines"] != cpython.lines:
            problems.append(
                f"{name}: printed lines differ\nCPython:\n"
                + "\n".join(cpython.lines)
                + "\nPyodide:\n"
                + "\n".join(pyo["lines"])
            )
    assert not problems, "\n\n".join(problems)
