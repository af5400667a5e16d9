// Run a repo Python script inside Pyodide under Node, as `python script.py args...` would.
//
//   node pyodide_node/run_script.mjs [--with DIR]... <script.py relative to the repo> [args...]
//
// The script sees miniray/, its own folder and each --with folder at /repo and
// runs as __main__ with sys.argv set. Exit code: the script's SystemExit code, or 3
// if Pyodide itself failed. Used by the parity tests to run scenarios and examples in Pyodide, and
// by the benchmarks to time the same code there.

import { dirname } from "node:path";
import { startPyodide, copyTree, enterRepo, GUEST_REPO } from "./pyodide_host.mjs";

const argv = process.argv.slice(2);
const extraDirs = [];
while (argv[0] === "--with" && argv.length > 1) {
  extraDirs.push(argv[1]);
  argv.splice(0, 2);
}
const [script, ...args] = argv;
if (!script) {
  console.error("usage: node run_script.mjs [--with DIR]... <script.py> [args...]");
  process.exit(2);
}

try {
  const pyodide = await startPyodide();
  copyTree(pyodide, "miniray");
  copyTree(pyodide, dirname(script));
  for (const dir of extraDirs) copyTree(pyodide, dir);
  enterRepo(pyodide, [`${GUEST_REPO}/${dirname(script)}`]);
  pyodide.globals.set("script_argv", pyodide.toPy([script, ...args]));
  const code = pyodide.runPython(`
import runpy, sys
sys.argv = list(script_argv)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    _code = 0
except SystemExit as e:
    _code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
_code
`);
  process.exit(code);
} catch (err) {
  console.error("Pyodide run failed:", err);
  process.exit(3);
}
