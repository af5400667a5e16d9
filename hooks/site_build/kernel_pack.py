"""The kernel's boot packages as gzip'd packs of files, unpacked by playground/kernel_boot.mjs.

Why: Pyodide's loadPackage fetches each wheel and unzips it with Python's zipfile, wheel by
wheel (~1 s for the kernel's 20 wheels in Node on 2 cores, before anything is imported). A pack
holds the same files, already unzipped, with the same two files loadPackage adds to each
dist-info (so micropip reports them as installed by Pyodide); the loader writes them into
site-packages straight from JavaScript. The wheels and the lock stay in the site: micropip and
the kernel's fallback still use them.

Two packs (boot_split.py says which file goes where): the boot pack, which every start
unpacks, and the deferred pack, with the modules the start does not import and the type stubs,
plus the standard library modules left out of the trimmed python_stdlib.zip written beside them.
The kernel fetches the deferred pack when it first needs it.

Format: [u32 little-endian header length][header JSON][file bytes...], gzip'd. The header is
{"files": [[path, offset, length], ...], ...}. In the boot pack paths are relative to
site-packages and the header adds "loaded" ({name: channel}, what loadPackage records); in the
deferred pack they are relative to /lib/python3.14 ("site-packages/jedi/...", "email/..."). The
loader is told the deferred pack's name and the modules it holds (kernel_boot.install_loader).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import boot_split
from .kernel_lock import dependency_closure

# What pyodide.loadPackage writes into each dist-info it installs (Pyodide 314.0.6).
LOADPACKAGE_MARKERS = {"INSTALLER": b"pyodide.loadPackage", "PYODIDE_SOURCE": b"pyodide"}
CHANNEL = "default channel"  # loadedPackages' value for packages from the lock
BOOT_NAME = "boot-packages"
DEFERRED_NAME = "deferred-files"
STDLIB = "python_stdlib.zip"


def boot_closure(lock: dict, roots: list[str]) -> list[str]:
    """The packages the kernel loads at boot: roots plus everything they depend on."""

    def served_here(name: str, entry: dict | None) -> None:
        if entry is None:
            raise SystemExit(f"kernel_pack: {name} is a boot package but not in the lock")
        if "://" in entry["file_name"]:
            raise SystemExit(f"kernel_pack: boot package {name} is not served by the site")

    return sorted(dependency_closure(lock["packages"], roots, served_here))


def _wheel_files(wheel: Path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(wheel) as zf:
        files = [(info.filename, zf.read(info)) for info in zf.infolist() if not info.is_dir()]
    dist_info = {name.split("/")[0] for name, _ in files if name.split("/")[0].endswith(".dist-info")}
    if len(dist_info) != 1:
        raise SystemExit(f"kernel_pack: {wheel.name} has {len(dist_info)} .dist-info folders")
    (folder,) = dist_info
    present = {name for name, _ in files}
    for marker, content in LOADPACKAGE_MARKERS.items():
        if f"{folder}/{marker}" not in present:
            files.append((f"{folder}/{marker}", content))
    return files


def pack_bytes(files: list[tuple[str, bytes]], **header: Any) -> bytes:
    """The pack format (module docstring), gzip'd the same way for the same input."""
    entries: list[list[str | int]] = []
    offset = 0
    for path, data in files:
        entries.append([path, offset, len(data)])
        offset += len(data)
    head = json.dumps({"files": entries, **header}, separators=(",", ":")).encode()
    raw = struct.pack("<I", len(head)) + head + b"".join(data for _, data in files)
    return gzip.compress(raw, compresslevel=9, mtime=0)  # mtime=0: same input, same bytes


def _write_hashed(pyodide_dir: Path, stem: str, packed: bytes) -> Path:
    for old in pyodide_dir.glob(f"{stem}.*.pack.gz"):
        old.unlink()
    out = pyodide_dir / f"{stem}.{hashlib.sha256(packed).hexdigest()[:16]}.pack.gz"
    out.write_bytes(packed)
    return out


@dataclass(frozen=True)
class Packs:
    boot: Path
    deferred: Path
    deferred_modules: list[str]  # what an import may find in the deferred pack


def write_pack(pyodide_dir: Path, roots: list[str]) -> Packs:
    """Write the boot pack and the deferred pack next to the wheels and trim python_stdlib.zip to
    what the boot imports (all in the lite build's copy of the Pyodide folder)."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    names = boot_closure(lock, roots)
    files: list[tuple[str, bytes]] = []
    owners: dict[str, str] = {}  # file path in the pack -> the package that brought it
    for name in names:
        wheel = pyodide_dir / lock["packages"][name]["file_name"]
        for path, data in _wheel_files(wheel):
            if path in owners:
                raise SystemExit(f"kernel_pack: {path} is in both {owners[path]} and {name}")
            owners[path] = name
            files.append((path, data))
    loaded = {n: CHANNEL for n in names}
    # The trace also imports what lessons load from their own wheels (ipywidgets), for the stdlib
    # modules those need; their files stay in their wheels.
    extra = [n for n in boot_closure(lock, list(boot_split.LESSON_PACKAGES)) if n not in names]
    traced = files + [f for n in extra for f in _wheel_files(pyodide_dir / lock["packages"][n]["file_name"])]
    split = boot_split.split(files, pack_bytes(traced), pyodide_dir / STDLIB)
    deferred = _write_hashed(pyodide_dir, DEFERRED_NAME, pack_bytes(split.deferred))
    (pyodide_dir / STDLIB).write_bytes(split.stdlib_zip)
    boot = _write_hashed(pyodide_dir, BOOT_NAME, pack_bytes(split.boot, loaded=loaded))
    return Packs(boot, deferred, split.modules)
