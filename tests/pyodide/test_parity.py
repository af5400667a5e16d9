"""Parity: tests/unit gives the same per-test outcomes in Pyodide (under Node) as in CPython.

Both runs use the outcome_recorder plugin; the outcome maps must be equal and
non-empty. In a session that runs the whole of tests/unit itself (`make test`), the
CPython side is that run's outcomes, recorded as it goes (this test runs last:
RUN_LAST), and the Pyodide pass starts in the background once the session is
collected (tests/session_background.py). Run alone, this test runs both passes.
Pyodide is npm pyodide@314.0.6 (Python 3.14, wasm32) from node_modules, with
pytest unzipped from build/pyodide-wheels: `make test` prepares both (node-deps,
pyodide-wheels).
"""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import session_background
from outcome_recorder import OutcomeRecorder

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TIMEOUT_S = 600

pytestmark = pytest.mark.pyodide
RUN_LAST = True  # after tests/unit, whose outcomes in this session are the CPython side
_in_session: OutcomeRecorder | None = None  # this session's own tests/unit outcomes, if it runs them all


def _runs_all_unit_tests(config):
    """Whether this session runs every test in tests/unit: collected as a folder (the repo,
    tests or tests/unit named, or nothing), no -k, none deselected (conftest notes that)."""
    whole = {REPO, REPO / "tests", REPO / "tests" / "unit"}
    named = [Path(config.invocation_params.dir, a.split("::")[0]).resolve() for a in config.args]
    return (
        any(path in whole for path in named)
        and not config.getoption("keyword")
        and not session_background.deselected_any("tests/unit/")
    )


def start_in_background(items, submit):
    """Record this session's own tests/unit outcomes (when it runs them all), and queue the Pyodide pass."""
    global _in_session
    config = items[0].config
    if _runs_all_unit_tests(config):
        _in_session = OutcomeRecorder(None)
        config.pluginmanager.register(_in_session, "unit-outcomes-in-session")
    submit("pyodide-unit", _pyodide_outcomes, session_background.scratch() / "pyodide.json")


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


def _this_sessions_outcomes():
    """The CPython side from this session's own run of tests/unit, as outcome_recorder writes it."""
    assert _in_session is not None
    unit = {k: v for k, v in _in_session.outcomes.items() if k.startswith("tests/unit/")}
    return {"python": sys.version.split()[0], "outcomes": unit}


def test_unit_tests_same_outcomes_in_pyodide_and_cpython(tmp_path):
    # Whatever is not already under way runs here, the two passes side by side (two cores).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        pyo = session_background.claim("pyodide-unit") or pool.submit(
            _pyodide_outcomes, tmp_path / "pyodide.json"
        )
        if _in_session is not None:
            cpython = _this_sessions_outcomes()
        else:
            cpython, _ = pool.submit(_cpython_outcomes, tmp_path / "cpython.json").result()
        pyodide, pyo_proc = pyo.result()
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
