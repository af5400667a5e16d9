"""Run conformance scenarios on miniray in this interpreter and print their observations.

    python tests/pyodide/scenarios_in_pyodide.py [scenario ...]

Meant for Pyodide (via run_script.mjs, see test_scenarios_parity.py), where there
are no subprocesses, so all scenarios share one interpreter, one after another.
Prints one line: RESULT_MARKER followed by {name: observations or {"crashed": traceback}}.
"""

import json
import os
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCENARIOS = os.path.join(REPO, "tests", "conformance", "scenarios")
RESULT_MARKER = "SCENARIOS-RESULT "


def main(names):
    sys.path[:0] = [REPO, SCENARIOS]
    import importlib

    import miniray
    import miniray.cluster_utils

    names = names or sorted(
        f[:-3] for f in os.listdir(SCENARIOS) if f.endswith(".py") and not f.startswith("_")
    )
    results = {}
    for name in names:
        workdir = tempfile.mkdtemp(prefix=f"{name}-")
        try:
            module = importlib.import_module(name)
            results[name] = module.run(miniray, miniray.cluster_utils, workdir)
        except Exception:
            results[name] = {"crashed": traceback.format_exc()}
        finally:
            if miniray.is_initialized():  # a crashed scenario must not leak into the next
                miniray.shutdown()
    print(RESULT_MARKER + json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
