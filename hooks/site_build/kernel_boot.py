"""Install playground/kernel_boot.mjs as the kernel's Pyodide loader (its `pyodideUrl`).

The loader restores a memory snapshot the learner's browser made on the kernel's first boot
(see the module's header). BOOT_ID names that snapshot: a hash of every file in the Pyodide
folder (core, wheels, lock) and of the loader itself with the Python it runs
(playground/boot_python/), so a site built from anything different never restores an old
snapshot.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

from .kernel_pack import Packs
from .serve import COMPRESSIBLE

PLAIN_URL = "./static/pyodide/pyodide.mjs"
# What a start fetches from the Pyodide folder (the loader's own imports, pyodide.mjs and
# pyodide.asm.mjs, come as modules, before it can count): the page's progress bar adds these up.
FETCHED_AT_BOOT = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
LOADER = "kernel-boot.mjs"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"


def boot_id(pyodide_dir: Path, loader_source: str) -> str:
    digest = hashlib.sha256(loader_source.encode())
    for path in sorted(pyodide_dir.iterdir()):
        if path.is_file() and path.name != LOADER:
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def _kernel_settings(config: dict) -> dict:
    return config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]


def boot_packages(lite_dir: Path) -> list[str]:
    """The packages the kernel loads before the first cell (the lite build's loadPyodideOptions)."""
    config = json.loads((lite_dir / "jupyter-lite.json").read_text(encoding="utf-8"))
    return list(_kernel_settings(config)["loadPyodideOptions"]["packages"])


def boot_files(pyodide_dir: Path, names: list[str]) -> dict[str, list[int]]:
    """{name: [bytes unpacked, bytes sent]} for the files a start fetches: sent is gzip's size
    (level 6, as `make serve` compresses) for the types a static host compresses."""
    sizes = {}
    for name in names:
        data = (pyodide_dir / name).read_bytes()
        sent = len(gzip.compress(data, compresslevel=6)) if Path(name).suffix in COMPRESSIBLE else len(data)
        sizes[name] = [len(data), sent]
    return sizes


def with_boot_python(repo: Path, source: str) -> str:
    """The loader with the Python it runs filled in: playground/boot_python/NAME.py replaces
    `__PY_NAME__` (upper case) as a JavaScript string. Before BOOT_ID is worked out from the
    loader, so that a change to that Python also makes every browser's snapshot stale."""
    folder = repo / "playground/boot_python"
    for path in sorted(folder.glob("*.py")):
        placeholder = f"__PY_{path.stem.upper()}__"
        if source.count(placeholder) != 1:
            raise SystemExit(f"kernel_boot: playground/kernel_boot.mjs must name {placeholder} exactly once")
        source = source.replace(placeholder, json.dumps(path.read_text(encoding="utf-8")))
    left = re.findall(r"__PY_[A-Z_]+__", source)
    if left:
        raise SystemExit(f"kernel_boot: no playground/boot_python file for {left[0]}")
    return source


def install_loader(repo: Path, lite_dir: Path, packs: Packs) -> str:
    """Write the loader (naming the packs, kernel_pack.write_pack) next to pyodide.mjs and point
    the kernel at it; returns the BOOT_ID."""
    source = with_boot_python(repo, (repo / "playground/kernel_boot.mjs").read_text(encoding="utf-8"))
    for placeholder in ("__BOOT_ID__", "__BOOT_PACK__", "__BOOT_FILES__", "__DEFERRED__"):
        if source.count(placeholder) != 1:
            raise SystemExit(f"kernel_boot: playground/kernel_boot.mjs must name {placeholder} exactly once")
    pyodide_dir = lite_dir / "static/pyodide"
    config_path = lite_dir / "jupyter-lite.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    settings = _kernel_settings(config)
    ident = boot_id(pyodide_dir, source)
    fetched = json.dumps(boot_files(pyodide_dir, [*FETCHED_AT_BOOT, packs.boot.name]))
    deferred = json.dumps(
        {"pack": packs.deferred.name, "modules": packs.deferred_modules}, separators=(",", ":")
    )
    loader = (
        source.replace("__BOOT_ID__", ident)
        .replace("__BOOT_PACK__", packs.boot.name)
        .replace("__BOOT_FILES__", fetched)
        .replace("__DEFERRED__", deferred)
    )
    (pyodide_dir / LOADER).write_text(loader, encoding="utf-8")
    if settings.get("pyodideUrl") != PLAIN_URL:
        raise SystemExit(
            f"kernel_boot: expected the lite build to set pyodideUrl to {PLAIN_URL}, "
            f"found {settings.get('pyodideUrl')!r} (jupyterlite-pyodide-kernel changed?)"
        )
    settings["pyodideUrl"] = f"./static/pyodide/{LOADER}"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return ident
