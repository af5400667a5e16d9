"""Write and verify the pyodide-lock.json that the in-browser kernel boots from.

Why our own lock: Pyodide's official lock names its own rebuilt wheels, whose sha256 differ
from PyPI's; Chromium rejects a hash mismatch with only `net::ERR_FAILED`. So every wheel we
serve ourselves gets an entry with the sha256 of the file we actually serve. Compiled packages
(the matplotlib family) have no wasm wheels outside Pyodide's CDN: those entries are kept
exactly as the official lock has them (absolute CDN URL, official sha256), so plots work for
a learner who is online and nothing else ever leaves the site.

Why not the Pyodide project's `pyodide-lock` package (PyPI; this module was named after it and
shadowed it): its version 0.1.2 reads and writes the lock through pydantic models that require
`info.version`, which the lock of the Pyodide we ship (314.0.6) does not have, so `PyodideLockSpec.from_json` refuses our very input. Its `add_wheels_to_spec` takes
`depends` from each wheel's metadata, where we keep Pyodide's own (shorter) lists, and it would
add pydantic (compiled) to the build's venv for what is ~100 lines of stdlib here.
"""

from __future__ import annotations

import email.parser
import hashlib
import json
import re
import zipfile
from pathlib import Path

# Packages that may only come from Pyodide's CDN (compiled for wasm, not on PyPI/npm).
# Their dependency closure in the official lock is kept too (numpy, pillow, ...).
CDN_ROOTS = ("matplotlib",)
# Requirements that only carry frontend assets: the site ships their labextension itself and
# the kernel never imports them, so they are dropped from `depends` instead of downloaded.
FRONTEND_ONLY = {"jupyterlab-widgets"}


def canonical(name: str) -> str:
    """PEP 503 name: Pyodide looks packages up by this form (`prompt-toolkit`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel_metadata(wheel: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, unconditional requirement names, top-level import names) of a wheel."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_path = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(zf.read(meta_path).decode())
        top_level = {n.split("/")[0] for n in names if "/" in n and ".dist-info/" not in n}
        # Single-module wheels: six.py, or six.pyc once byte-compiled (wheel_bytecode).
        top_level |= {n.rsplit(".", 1)[0] for n in names if "/" not in n and n.endswith((".py", ".pyc"))}
    requires = []
    for req in meta.get_all("Requires-Dist") or []:
        # An extra or a platform marker means "optional here": the kernel never needs it.
        if ";" in req and ("extra" in req or "platform" in req or "sys_platform" in req):
            continue
        name = canonical(re.split(r"[\s<>=!~;\[(]", req.strip(), maxsplit=1)[0])
        if name not in FRONTEND_ONLY:
            requires.append(name)
    imports = sorted(t for t in top_level if t.isidentifier())
    return meta["Name"], meta["Version"], requires, imports


def dependency_closure(packages: dict, roots, visit=None) -> set[str]:
    """roots plus everything they depend on, by canonical name; visit(name, entry or None) sees
    each package once, before its dependencies, and may raise to reject it."""
    keep: set[str] = set()
    todo = [canonical(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        if visit:
            visit(name, packages.get(name))
        keep.add(name)
        todo.extend(canonical(d) for d in packages[name]["depends"])
    return keep


def _cdn_closure(official: dict) -> set[str]:
    return dependency_closure({canonical(k): v for k, v in official["packages"].items()}, CDN_ROOTS)


def build_lock(wheel_dir: Path, official_lock: Path, cdn_base_url: str) -> dict:
    """Lock for every wheel in wheel_dir (served next to the lock) plus the CDN-only family."""
    official = json.loads(official_lock.read_text())
    official_pkgs = {canonical(k): v for k, v in official["packages"].items()}
    packages: dict[str, dict] = {}
    for wheel in sorted(wheel_dir.glob("*.whl")):
        name, version, requires, imports = _wheel_metadata(wheel)
        key = canonical(name)
        if key in packages:
            raise SystemExit(f"lock: two wheels for {key} in {wheel_dir}")
        upstream = official_pkgs.get(key, {})
        packages[key] = {
            "name": key,
            "version": version,
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": sha256_of(wheel),
            "package_type": "package",
            "imports": upstream.get("imports") or imports,
            # Pyodide's own depends where it has the package: it leaves out what the kernel
            # never imports (ipython -> jedi, ipython-pygments-lexers), which keeps boot small.
            "depends": [canonical(d) for d in upstream["depends"]] if upstream else requires,
            "unvendored_tests": False,
        }
    for key in sorted(_cdn_closure(official)):
        if key in packages:  # a pure dependency we already serve locally (six, packaging)
            continue
        entry = dict(official_pkgs[key])
        entry["name"] = key
        entry["depends"] = [canonical(d) for d in entry["depends"]]
        entry["file_name"] = f"{cdn_base_url.rstrip('/')}/{entry['file_name']}"
        packages[key] = entry
    for key, entry in packages.items():
        missing = [d for d in entry["depends"] if d not in packages]
        if missing:
            raise SystemExit(f"lock: {key} depends on {missing}, which no wheel provides")
    return {"info": official["info"], "packages": packages}


def write_lock(wheel_dir: Path, official_lock: Path, cdn_base_url: str) -> Path:
    """Write pyodide-lock.json next to the wheels, check it, and return its path."""
    lock = build_lock(wheel_dir, official_lock, cdn_base_url)
    lock_path = wheel_dir / "pyodide-lock.json"
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))
    problems = check_lock(lock_path)
    if problems:
        raise SystemExit("pyodide-lock.json is broken:\n" + "\n".join(problems))
    return lock_path


def check_lock(lock_path: Path) -> list[str]:
    """Problems with a built lock: local entries that are missing or whose sha256 differs."""
    lock = json.loads(lock_path.read_text())
    problems = []
    for key, entry in lock["packages"].items():
        if key != canonical(key):
            problems.append(f"{key}: lock key is not canonical")
        if "://" in entry["file_name"]:
            continue  # CDN entry, checked by the browser against the official sha256
        wheel = lock_path.parent / entry["file_name"]
        if not wheel.is_file():
            problems.append(f"{key}: {entry['file_name']} is missing")
        elif sha256_of(wheel) != entry["sha256"]:
            problems.append(f"{key}: sha256 of {entry['file_name']} does not match the lock")
    return problems
