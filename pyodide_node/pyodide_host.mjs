// Shared Node-side helpers for running repo code inside Pyodide, offline.
//
// Pyodide is loaded from node_modules/pyodide (npm pyodide@314.0.6, `make node-deps`):
// core files only, nothing fetched at run time. Pure-Python wheels downloaded by
// `make pyodide-wheels` are unzipped straight into site-packages, because micropip
// would want a package index. Repo files are copied into Pyodide's in-memory FS
// (not mounted) so nothing Python does in there can write into the checkout.

import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PYODIDE_DIR = join(REPO, "node_modules", "pyodide");
export const WHEELS_DIR = join(REPO, "build", "pyodide-wheels");
export const GUEST_REPO = "/repo";

export async function startPyodide() {
  if (!existsSync(join(PYODIDE_DIR, "pyodide.asm.wasm"))) {
    throw new Error(`Pyodide core files missing in ${PYODIDE_DIR}: run \`make node-deps\``);
  }
  const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + "/" });
  // Raw byte streams rather than the line-batched default, so pytest's progress
  // dots and partial lines come out as they would in a terminal.
  pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
  pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });
  return pyodide;
}

// Copy host directory `src` (relative to the repo) into the guest repo, skipping caches.
export function copyTree(pyodide, relative) {
  const src = join(REPO, relative);
  const dst = `${GUEST_REPO}/${relative}`;
  if (!existsSync(src)) return 0;
  if (statSync(src).isFile()) {
    pyodide.FS.mkdirTree(dirname(dst));
    pyodide.FS.writeFile(dst, readFileSync(src));
    return 1;
  }
  let copied = 0;
  pyodide.FS.mkdirTree(dst);
  for (const name of readdirSync(src)) {
    if (name === "__pycache__" || name.endsWith(".pyc")) continue;
    copied += copyTree(pyodide, `${relative}/${name}`);
  }
  return copied;
}

// Unzip every wheel in WHEELS_DIR into the interpreter's site-packages.
export function installWheels(pyodide) {
  if (!existsSync(WHEELS_DIR)) {
    throw new Error(`no wheels in ${WHEELS_DIR}: run \`make pyodide-wheels\``);
  }
  const wheels = readdirSync(WHEELS_DIR).filter((n) => n.endsWith(".whl"));
  if (wheels.length === 0) throw new Error(`no wheels in ${WHEELS_DIR}: run \`make pyodide-wheels\``);
  pyodide.FS.mkdirTree("/wheels");
  for (const name of wheels) {
    pyodide.FS.writeFile(`/wheels/${name}`, readFileSync(join(WHEELS_DIR, name)));
  }
  pyodide.runPython(`
import glob, importlib, sysconfig, zipfile
_site = sysconfig.get_paths()["purelib"]
for _whl in sorted(glob.glob("/wheels/*.whl")):
    with zipfile.ZipFile(_whl) as _zf:
        _zf.extractall(_site)
importlib.invalidate_caches()
`);
  return wheels;
}

// Make the guest repo the working directory and importable, with no bytecode written.
export function enterRepo(pyodide, extraPaths = []) {
  pyodide.runPython(`
import os, sys
sys.dont_write_bytecode = True
os.chdir(${JSON.stringify(GUEST_REPO)})
for _p in reversed(${JSON.stringify([GUEST_REPO, ...extraPaths])}):
    sys.path.insert(0, _p)
`);
}
