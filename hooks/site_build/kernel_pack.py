"""The kernel's boot packages as one gzip'd pack of files, unpacked by playground/kernel_boot.mjs.

Why: Pyodide's loadPackage fetches each wheel and unzips it with Python's zipfile, wheel by
wheel (~1 s for the kernel's 20 wheels in Node on 2 cores, before anything is imported). The
pack holds the same files, already unzipped, with the same two files loadPackage adds to each
dist-info (so micropip reports them as installed by Pyodide); the loader writes them into
site-packages straight from JavaScript. The wheels and the lock stay in the site: micropip and
the kernel's fallback still use them.

Format: [u32 little-endian header length][header JSON][file bytes...], gzip'd. The header is
{"files": [[path relative to site-packages, offset, length], ...], "loaded": {name: channel}}.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
import zipfile
from pathlib import Path

from .kernel_lock import dependency_closure

# What pyodide.loadPackage writes into each dist-info it installs (Pyodide 314.0.6).
LOADPACKAGE_MARKERS = {"INSTALLER": b"pyodide.loadPackage", "PYODIDE_SOURCE": b"pyodide"}
CHANNEL = "default channel"  # loadedPackages' value for packages from the lock


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


def write_pack(pyodide_dir: Path, roots: list[str]) -> Path:
    """Write boot-packages.<hash>.pack.gz next to the wheels; returns its path."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    names = boot_closure(lock, roots)
    entries: list[list[str | int]] = []
    blobs: list[bytes] = []
    offset = 0
    owners: dict[str, str] = {}  # file path in the pack -> the package that brought it
    for name in names:
        wheel = pyodide_dir / lock["packages"][name]["file_name"]
        for path, data in _wheel_files(wheel):
            if path in owners:
                raise SystemExit(f"kernel_pack: {path} is in both {owners[path]} and {name}")
            owners[path] = name
            entries.append([path, offset, len(data)])
            blobs.append(data)
            offset += len(data)
    header = json.dumps(
        {"files": entries, "loaded": {n: CHANNEL for n in names}}, separators=(",", ":")
    ).encode()
    raw = struct.pack("<I", len(header)) + header + b"".join(blobs)
    packed = gzip.compress(raw, compresslevel=9, mtime=0)  # mtime=0: same input, same bytes
    for old in pyodide_dir.glob("boot-packages.*.pack.gz"):
        old.unlink()
    out = pyodide_dir / f"boot-packages.{hashlib.sha256(packed).hexdigest()[:16]}.pack.gz"
    out.write_bytes(packed)
    return out
