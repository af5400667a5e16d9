// Run `pytest tests/unit` inside Pyodide under Node and write per-test outcomes as JSON.
//
//   node tests/pyodide/run_unit_tests.mjs <outcomes.json> [extra pytest args...]
//
// Exit code: pytest's own (0 all passed, 1 some failed, ...), or 3 if Pyodide itself failed.

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startPyodide, copyTree, installWheels, enterRepo, GUEST_REPO } from "../../pyodide_node/pyodide_host.mjs";

const [outPath, ...extraArgs] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node run_unit_tests.mjs <outcomes.json> [pytest args...]");
  process.exit(2);
}

try {
  const pyodide = await startPyodide();
  for (const part of ["pyproject.toml", "miniray", "faultlines", "exercises", "tests/fixtures",
                      "tests/conftest.py", "tests/session_background.py", "tests/unit", "docs/design/layers.toml",
                      "tests/pyodide/outcome_recorder.py"]) {
    copyTree(pyodide, part);
  }
  installWheels(pyodide);
  enterRepo(pyodide, [`${GUEST_REPO}/tests/pyodide`]);
  const guestOut = "/tmp/outcomes.json";
  pyodide.globals.set("pytest_args", pyodide.toPy([
    "-q", "-p", "no:cacheprovider", "-p", "outcome_recorder",
    `--outcomes-json=${guestOut}`, ...extraArgs, "tests/unit",
  ]));
  const code = pyodide.runPython(`
import pytest
int(pytest.main(list(pytest_args)))
`);
  writeFileSync(resolve(outPath), pyodide.FS.readFile(guestOut, { encoding: "utf8" }));
  process.exit(code);
} catch (err) {
  console.error("Pyodide run failed:", err);
  process.exit(3);
}
