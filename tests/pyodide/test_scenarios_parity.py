"""Parity: the conformance scenarios observe the same on miniray in Pyodide as in CPython.

The course runs miniray in the browser, so the failure semantics that
tests/conformance checks against real Ray must hold in Pyodide too. All
scenarios run in one Pyodide interpreter (no subprocesses there); each CPython
run is its own process, as in the conformance suite.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.observations import differences, mismatch_report
from conformance.scenario_runs import run_scenario, scenario_names

REPO = Path(__file__).resolve().parents[2]

RESULT_MARKER = "SCENARIOS-RESULT "

pytestmark = pytest.mark.pyodide


def _pyodide_observations():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the Pyodide parity test needs Node.js (v20 here)")
    proc = subprocess.run(
        [
            node,
            str(REPO / "pyodide_node" / "run_script.mjs"),
            "--with",
            "tests/conformance/scenarios",
            "tests/pyodide/scenarios_in_pyodide.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith(RESULT_MARKER)]
    assert proc.returncode == 0 and lines, (
        f"Pyodide scenario run failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return json.loads(lines[-1][len(RESULT_MARKER) :])


def test_scenarios_same_in_pyodide_and_cpython(tmp_path):
    in_pyodide = _pyodide_observations()
    problems = []
    for name in scenario_names():
        cpython = run_scenario(sys.executable, "miniray", name, tmp_path / name)
        assert cpython.ok, f"{name} failed on miniray in CPython ({cpython.command}):\n{cpython.output}"
        pyodide = in_pyodide.get(name)
        if pyodide is None or "crashed" in pyodide:
            problems.append(
                f"scenario {name} did not run in Pyodide:\n"
                f"{(pyodide or {}).get('crashed', 'missing from the results')}"
            )
            continue
        diffs = differences(cpython.observations, pyodide)
        if diffs:
            problems.append(
                mismatch_report(
                    name, "miniray in CPython", cpython.observations, "miniray in Pyodide", pyodide, diffs
                )
            )
    assert not problems, "\n\n".join(problems)
