// Run lesson notebooks inside Pyodide under Node, with the lab's own kernel wheels.
//
//   node tests/lessons/run_notebooks_pyodide.mjs <notebooks.json> <report.json> <wheel dir>
//
// notebooks.json: [{"name": ..., "cells": [[source, tags], ...]}, ...]. Each notebook runs through
// tests/lessons/notebook_runner.py (the same code the CPython test runs), one after another in
// one interpreter; the report maps each name to the runner's report. The wheel dir holds the
// pure-Python wheels the site's kernel boots from (ipywidgets, traitlets, IPython, ...; `make
// site` downloads them to build/wheels/pypi); they are unzipped into site-packages, offline.
// The report also lists the module files the notebooks imported ("imported": what the runner had
// not imported before them), which the lab's first download must hold (boot_split.py).
// Exit code 0 when every notebook was run (pass or fail is in the report), 3 if Pyodide failed.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startPyodide, copyTree, enterRepo, GUEST_REPO } from "../../pyodide_node/pyodide_host.mjs";

const [notebooksPath, reportPath, wheelDir] = process.argv.slice(2);
if (!notebooksPath || !reportPath || !wheelDir) {
  console.error("usage: node run_notebooks_pyodide.mjs <notebooks.json> <report.json> <wheel dir>");
  process.exit(2);
}

try {
  const pyodide = await startPyodide();
  const wheels = readdirSync(wheelDir).filter((n) => n.endsWith(".whl"));
  pyodide.FS.mkdirTree("/wheels");
  for (const name of wheels) pyodide.FS.writeFile(`/wheels/${name}`, readFileSync(join(wheelDir, name)));
  pyodide.runPython(`
import glob, importlib, sysconfig, zipfile
for _whl in sorted(glob.glob("/wheels/*.whl")):
    with zipfile.ZipFile(_whl) as _zf:
        _zf.extractall(sysconfig.get_paths()["purelib"])
importlib.invalidate_caches()
`);
  for (const dir of ["miniray", "faultlines", "lessons", "tests/lessons/notebook_runner.py"]) copyTree(pyodide, dir);
  enterRepo(pyodide, [`${GUEST_REPO}/tests/lessons`]);
  pyodide.globals.set("notebooks_json", readFileSync(notebooksPath, "utf8"));
  const report = pyodide.runPython(`
import json, platform, sys
import notebook_runner
_report = {"python": platform.python_version(), "platform": sys.platform, "notebooks": {}}
_before = set(sys.modules)
for _nb in json.loads(notebooks_json):
    _report["notebooks"][_nb["name"]] = notebook_runner.run(_nb["cells"], excuse_matplotlib=True)
_report["imported"] = sorted(
    _file for _name in set(sys.modules) - _before if (_file := getattr(sys.modules[_name], "__file__", None))
)
json.dumps(_report)
`);
  writeFileSync(reportPath, report);
  process.exit(0);
} catch (err) {
  console.error("Pyodide run failed:", err);
  process.exit(3);
}
