// Which files the lab's kernel reads from its packages and from Python's standard library while it
// starts, and while the course's own code runs: run with the very Pyodide the site ships
// (node_modules/pyodide, npm pyodide@314.0.6), so that it imports what the browser's kernel does.
// (Checked against a real Chromium kernel: the same 256 stdlib and 536 package modules.)
// Usage: node hooks/site_build/boot_trace.mjs <spec.json>, spec = {"pack": <a kernel_pack file
// with every boot package's files>, "imports": [module names], "cells": [code run as a
// notebook's cells, by the kernel's own shell: what a first run, a first traceback import],
// "walk": [package names]}.
// Prints JSON {"files": [module file paths], "skipped": ["module: why"]}: site-packages files
// relative to site-packages, standard library files relative to the stdlib zip (prefix "stdlib/").
// A failing import of `imports` fails the run (and the build); a module of `walk` that needs a
// package the site does not serve (matplotlib) is skipped and listed.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(REPO, "node_modules", "pyodide");
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + "/" });

// The pack's format is kernel_pack.py's: [u32 header length][header JSON][file bytes...], gzip'd.
const pack = gunzipSync(readFileSync(spec.pack));
const headerLength = pack.readUInt32LE(0);
const { files } = JSON.parse(pack.subarray(4, 4 + headerLength).toString("utf8"));
const data = pack.subarray(4 + headerLength);
const root = pyodide._api.sitepackages;
for (const [path, offset, length] of files) {
  pyodide.FS.mkdirTree(dirname(`${root}/${path}`));
  pyodide.FS.writeFile(`${root}/${path}`, data.subarray(offset, offset + length));
}
pyodide.globals.set("imports", pyodide.toPy(spec.imports));
pyodide.globals.set("walk", pyodide.toPy(spec.walk ?? []));
pyodide.globals.set("cells", pyodide.toPy(spec.cells ?? []));
pyodide.globals.set("root", root);
const result = JSON.parse(pyodide.runPython(`
import importlib, json, pkgutil, sys, traceback

def trace():
    importlib.invalidate_caches()
    for name in imports:
        importlib.import_module(name)
    if cells:
        shell = importlib.import_module("pyodide_kernel").ipython_shell
        for cell in cells:
            shell.run_cell(cell)  # an error in a cell is its traceback, which is the point
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # the kernel's streams need a page
    skipped = []
    for package in walk:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            if info.name.endswith(".__main__"):
                continue  # a command line (python -m faultlines), not a module to import
            try:
                importlib.import_module(info.name)
            except ModuleNotFoundError as error:
                skipped.append(f"{info.name}: {error}")
    stdlib = next(p for p in sys.path if p.endswith(".zip"))
    found = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(root + "/"):
            found.add(path[len(root) + 1:])
        elif path.startswith(stdlib + "/"):
            found.add("stdlib/" + path[len(stdlib) + 1:])
    return {"files": sorted(found), "skipped": skipped}

try:
    answer = trace()
except BaseException:  # SystemExit too: a module that exits when imported
    answer = {"error": traceback.format_exc()}
json.dumps(answer)
`));
if (result.error) {
  process.stderr.write(result.error);
  process.exit(1);
}
process.stdout.write(JSON.stringify(result));
