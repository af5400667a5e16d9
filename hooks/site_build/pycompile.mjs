// Byte-compile unpacked wheels with the very Pyodide the site ships (node_modules/pyodide,
// npm pyodide@314.0.6), so the .pyc magic number and cache tag are exactly the browser's.
// Usage: node hooks/site_build/pycompile.mjs <spec.json>,
// spec = {"legacy": [dirs], "cached": [dirs], "boot_imports": [module names]}:
//   legacy: foo.pyc next to foo.py for each module that importing spec.boot_imports loads (the
//           caller then drops those .py, as `pyodide py-compile` does);
//   cached: __pycache__/foo.cpython-314.pyc, unchecked-hash, source kept for tracebacks.
// Host dirs are mounted with NODEFS; a failing import or compile fails the run (and the build).
import { readFileSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(REPO, "node_modules", "pyodide");
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + "/" });
const mounts = { legacy: [], cached: [] };
let n = 0;
for (const kind of ["legacy", "cached"]) {
  for (const dir of spec[kind] ?? []) {
    const guest = `/mnt/w${n++}`;
    pyodide.FS.mkdirTree(guest);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, guest);
    mounts[kind].push(guest);
  }
}
pyodide.globals.set("mounts", pyodide.toPy(mounts));
pyodide.globals.set("boot_imports", pyodide.toPy(spec.boot_imports ?? []));
pyodide.runPython(`
import compileall, importlib, py_compile, sys
from pathlib import Path
unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
# legacy: only the modules the kernel imports while booting. Importing them here (all mounts on
# sys.path) tells which; the rest (pygments' hundreds of lexers, jedi's inference engine) stays
# .py: compiled on first use in the browser, and .py is smaller to download than .pyc.
# No legacy mounts: every third-party wheel came from the cache, nothing here to import.
sys.path[:0] = mounts["legacy"] + mounts["cached"]
for name in boot_imports if mounts["legacy"] else []:
    importlib.import_module(name)
boot_files = {Path(m.__file__) for m in list(sys.modules.values())
              if getattr(m, "__file__", None) and m.__file__.startswith("/mnt/")
              and m.__file__.endswith(".py")}
boot_files = {f for f in boot_files if any(str(f).startswith(d + "/") for d in mounts["legacy"])}
for f in sorted(boot_files):
    py_compile.compile(str(f), cfile=str(f.with_suffix(".pyc")), doraise=True,
                       invalidation_mode=unchecked)
for d in mounts["cached"]:
    if not compileall.compile_dir(d, quiet=2, workers=1, invalidation_mode=unchecked):
        raise SystemExit(f"compileall failed in {d}")
print(f"byte-compiled {len(boot_files)} boot modules for {sys.implementation.cache_tag}",
      file=sys.stderr)
`);
