"""What the lab's first start needs, and what can come later: the split behind kernel_pack's two packs.

Why: a cold start downloaded every file of the kernel's packages (jedi's 1,800 typeshed stubs,
pygments' 500 lexers, prompt_toolkit's widgets) and Python's whole standard library, though it
imports a fraction of them. The split keeps, for the boot pack and a trimmed stdlib zip:
- every module file the kernel imports while it starts and runs its first cells (a value, an HTML
  display, a traceback), and every module the course's own code imports (found by doing all that
  under the site's own Pyodide in Node, boot_trace.mjs);
- the course's own packages whole (COURSE_PACKAGES: lessons import any part of them);
- every file that is not Python code (dist-info, data such as IPython's themes), all small,
  except inside a package the start does not import.
The rest (modules nobody imports at the start, type stubs) goes in the deferred pack. The kernel
fetches it when an import first needs one of its modules (playground/kernel_boot.mjs, a finder
last on sys.meta_path), or in the background once the lab has started; then it is all there.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

TRACE = Path(__file__).resolve().with_name("boot_trace.mjs")
# Imported under Node to find the boot's files. The first three are the kernel's own start
# (jupyterlite-pyodide-kernel's initPackageManager and initKernel); faultlines.notebook and the
# debugger's widget (with ipywidgets) are what playground/kernel_boot.mjs's snapshot imports
# besides.
# traitlets.log: in the browser, IPython's profile folder is made afresh and says so through a
# logger (under Node it exists already).
STARTUP_IMPORTS = (
    "micropip",
    "piplite.piplite",
    "pyodide_kernel",
    "faultlines.notebook",
    "faultlines.debugger.widget",
    "traitlets.log",
)
# Run by the kernel's shell after those imports: its first run imports more (IPython's logger),
# as do a displayed value, an HTML display (check()'s report), a traceback (stack_data,
# pygments) and a wheel's unzipping.
STARTUP_CELLS = (
    "x = 1\nx",
    "print('x')",
    "from IPython.display import HTML, display\ndisplay(HTML('<b>x</b>'))",
    "1 / 0",
    "import ipywidgets\nipywidgets.VBox([ipywidgets.FloatSlider(), ipywidgets.HTML('x')])",
    # What loadPackage does with a wheel (ipywidgets, at a lesson's first widget): its names
    # are decoded as cp437, and looking for shared libraries imports tarfile.
    "import io, tempfile, zipfile\nfrom pyodide.ffi import to_js\n"
    "from pyodide._package_loader import unpack_buffer\nwheel = io.BytesIO()\n"
    "zipfile.ZipFile(wheel, 'w').writestr('a-1.dist-info/METADATA', '')\n"
    "unpack_buffer(to_js(wheel.getvalue()), filename='a-1-py3-none-any.whl', "
    "extract_dir=tempfile.mkdtemp(), calculate_dynlibs=True)",
)
# Not boot packages, but what the lessons load from their wheels at their first widget: traced
# too (their wheels' files put beside the boot's), for the stdlib modules they import.
LESSON_PACKAGES = ("ipywidgets",)
# Walked module by module: whatever the course's code imports from the stdlib is then in the boot.
COURSE_PACKAGES = ("miniray", "faultlines")
CODE = (".py", ".pyc", ".pyi")
STDLIB_PREFIX = "stdlib/"  # how boot_trace.mjs names a standard library file


@dataclass(frozen=True)
class Split:
    boot: list[tuple[str, bytes]]  # site-packages files for the boot pack
    deferred: list[tuple[str, bytes]]  # relative to /lib/python3.14: "site-packages/..." or stdlib
    stdlib_zip: bytes  # the standard library the interpreter starts with
    modules: list[str]  # every module the deferred pack holds, for the kernel's finder
    skipped: list[str]  # course modules not traced (they need a package the site does not serve)


def trace(traced_pack: bytes) -> tuple[set[str], list[str]]:
    """The files importing STARTUP_IMPORTS, running STARTUP_CELLS and importing COURSE_PACKAGES
    reads (boot_trace.mjs's names)."""
    with tempfile.TemporaryDirectory(prefix="boot-trace-") as tmp:
        pack = Path(tmp) / "all.pack.gz"
        pack.write_bytes(traced_pack)
        spec = Path(tmp) / "spec.json"
        spec.write_text(
            json.dumps(
                {
                    "pack": str(pack),
                    "imports": STARTUP_IMPORTS,
                    "cells": STARTUP_CELLS,
                    "walk": COURSE_PACKAGES,
                }
            )
        )
        result = subprocess.run(["node", str(TRACE), str(spec)], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(
            f"tracing the kernel's boot imports under Pyodide failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    found = json.loads(result.stdout)
    return set(found["files"]), found["skipped"]


def module_name(path: str) -> str | None:
    """'jedi/inference/__init__.py' -> 'jedi.inference'; None for a file that is not a module."""
    if not path.endswith((".py", ".pyc")) or "-" in path.split("/")[0]:
        return None
    parts = path.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or None


def _at_boot(path: str, imported: set[str], deferred_packages: set[str]) -> bool:
    """A module file: if imported. Any other file (IPython's theme files, a package's data):
    unless it is inside a package whose __init__ is deferred: a file there would make the
    package's folder exist at the start, and a folder without its __init__ imports as an empty
    namespace package, shadowing the deferred one."""
    top = path.split("/")[0]
    if top in COURSE_PACKAGES or top.endswith(".dist-info"):
        return True
    if path.endswith(CODE):
        return path in imported
    folder = path.rpartition("/")[0]
    return not any(folder == p or folder.startswith(p + "/") for p in deferred_packages)


def _deferred_packages(paths: list[str], imported: set[str]) -> set[str]:
    """The folders of the packages whose __init__ the start does not import."""
    return {
        path.rpartition("/")[0]
        for path in paths
        if path.rpartition("/")[2] in ("__init__.py", "__init__.pyc")
        and path not in imported
        and path.split("/")[0] not in COURSE_PACKAGES
    }


def split(files: list[tuple[str, bytes]], traced_pack: bytes, stdlib_zip: Path) -> Split:
    """Split the boot packages' files (site-packages paths) and the stdlib zip; traced_pack holds
    the boot packages' files and LESSON_PACKAGES' (kernel_pack's format)."""
    imported, skipped = trace(traced_pack)
    packages = _deferred_packages([path for path, _ in files], imported)
    at_boot = {path for path, _ in files if _at_boot(path, imported, packages)}
    boot = [(path, data) for path, data in files if path in at_boot]
    deferred = [(f"site-packages/{path}", data) for path, data in files if path not in at_boot]
    modules = {name for path, _ in files if path not in at_boot if (name := module_name(path))}
    kept = []
    stdlib_imported = {p[len(STDLIB_PREFIX) :] for p in imported if p.startswith(STDLIB_PREFIX)}
    with zipfile.ZipFile(stdlib_zip) as zf:
        stdlib_packages = _deferred_packages([i.filename for i in zf.infolist()], stdlib_imported)
        for info in zf.infolist():
            if info.is_dir():
                continue
            data = zf.read(info)
            if _at_boot(info.filename, stdlib_imported, stdlib_packages):
                kept.append((info, data))
            else:
                deferred.append((info.filename, data))
                if name := module_name(info.filename):
                    modules.add(name)
    return Split(boot, deferred, _zip(kept), sorted(modules), skipped)


def _zip(entries: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    """The kept stdlib entries as a zip, compressed as Pyodide's own is, with their own dates."""
    with tempfile.TemporaryFile() as out:
        with zipfile.ZipFile(out, "w") as zf:
            for info, data in entries:
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.external_attr = info.external_attr
                zf.writestr(copy, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        out.seek(0)
        return out.read()
