"""Parity: tests/unit gives the same per-test outcomes in Pyodide (under Node) as in CPython.

Both runs use the outcome_recorder plugin; the outcome maps must be equal and
non-empty. Pyodide is npm pyodide@314.0.6 (Python 3.14, wasm32) from
node_modules, with pytest unzipped from build/pyodide-wheels: `make test`
prepares both (node-deps, pyodide-wheels).
"""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TIMEOUT_S = 600

pytestmark = pytest.mark.pyodide


def _node():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the Pyodide parity test needs Node.js (v20 here)")
    return node


def _cpython_outcomes(out):
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "outcome_recorder",
            f"--outcomes-json={out}",
            "tests/unit",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert out.exists(), f"CPython run wrote no outcomes:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return json.loads(out.read_text()), proc


def _pyodide_outcomes(out):
    proc = subprocess.run(
        [_node(), str(HERE / "run_unit_tests.mjs"), str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert proc.returncode != 3 and out.exists(), (
        f"Pyodide run failed before pytest reported (exit {proc.returncode}):\n"
        f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return json.loads(out.read_text()), proc


def test_unit_tests_same_outcomes_in_pyodide_and_cpython(tmp_path):
    # The two runs are independent processes: run them side by side (the machine's two cores;
    # this session only waits), which saves the shorter one's time (about a minute).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        cpy = pool.submit(_cpython_outcomes, tmp_path / "cpython.json")
        pyo = pool.submit(_pyodide_outcomes, tmp_path / "pyodide.json")
        (cpython, _), (pyodide, pyo_proc) = cpy.result(), pyo.result()
    assert pyodide["platform"] == "emscripten", pyodide
    print(
        f"CPython {cpython['python']}: {len(cpython['outcomes'])} tests; "
        f"Pyodide {pyodide['python']} ({pyodide['platform']}): {len(pyodide['outcomes'])} tests"
    )
    assert cpython["outcomes"], "CPython ran no unit tests"
    assert pyodide["outcomes"], "Pyodide ran no unit tests"
    ids = sorted(set(cpython["outcomes"]) | set(pyodide["outcomes"]))
    differing = [
        (i, cpython["outcomes"].get(i, "absent"), pyodide["outcomes"].get(i, "absent"))
        for i in ids
        if cpython["outcomes"].get(i) != pyodide["outcomes"].get(i)
    ]
    assert not differing, (
        f"{len(differing)} of {len(ids)} unit tests differ (CPython -> Pyodide):\n"
        + "\n".join(f"  {i}: {c} -> {p}" for i, c, p in differing)
        + f"\n--- Pyodide pytest output (tail) ---\n{pyo_proc.stdout[-6000:]}"
    )
