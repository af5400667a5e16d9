"""Ship the kernel's pure-Python wheels byte-compiled for Pyodide's Python 3.14.

Why: PyPI's wheels hold only .py, so the browser compiles IPython, prompt-toolkit, jedi, ...
to bytecode on every kernel start, on wasm (seconds of the time to the first cell). Pyodide's
own build ships .pyc instead (`pyodide py-compile`); this does the same at site build time with
the Pyodide the site serves (run under Node by pycompile.mjs, so the magic number matches):
- third-party wheels: for each module the kernel imports at boot (BOOT_IMPORTS), a legacy
  foo.pyc where foo.py was, .py dropped; modules only used later stay .py (.pyc is bigger);
- KEEP_SOURCE wheels (miniray, ours): .py kept for readable tracebacks, plus unchecked-hash
  __pycache__ .pyc that the interpreter uses without comparing against the source's mtime.
Each wheel is rezipped with a fresh RECORD; the lock then takes the sha256 of the result.
Compiled third-party wheels are cached under build/wheels/pyc by the input's sha256 (and
BOOT_IMPORTS).
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

KEEP_SOURCE = ("miniray-",)
# What the kernel imports before the first cell runs (less pyodide_kernel itself: importing it
# patches the interpreter for a browser kernel, which is no business of a build).
# Only the modules these load get .pyc: the rest of a wheel stays .py, smaller to download.
BOOT_IMPORTS = (
    "IPython",
    "IPython.core.interactiveshell",
    "IPython.core.completer",
    "IPython.core.application",
    "IPython.core.shellapp",
    "IPython.core.history",
    "IPython.display",
    "jedi",
    "comm",
    "ipywidgets",
    "traitlets",
    "micropip",
    "piplite",
    "ipykernel",
)
# Runs the Pyodide the site ships, under Node: its .pyc magic number is the browser's.
PYCOMPILE = Path(__file__).resolve().with_name("pycompile.mjs")
ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so a rebuild gives the same bytes and sha256


def _record_line(rel: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{rel},sha256={digest},{len(data)}"


def _rezip(root: Path, wheel: Path) -> None:
    files = sorted(p for p in root.rglob("*") if p.is_file())
    record = next(p for p in files if p.name == "RECORD" and p.parent.name.endswith(".dist-info"))
    rel_record = record.relative_to(root).as_posix()
    lines = [_record_line(p.relative_to(root).as_posix(), p.read_bytes()) for p in files if p != record]
    record.write_text("\n".join([*lines, f"{rel_record},,"]) + "\n")
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        # RECORD last, as wheels have it.
        for p in [*(f for f in files if f != record), record]:
            info = zipfile.ZipInfo(p.relative_to(root).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, p.read_bytes())
    tmp.replace(wheel)


def _drop_compiled_sources(root: Path) -> None:
    """Remove each .py that has its legacy .pyc beside it."""
    for pyc in root.rglob("*.pyc"):
        pyc.with_suffix(".py").unlink()


def compile_wheels(wheel_dir: Path, repo: Path, log=print) -> None:
    """Replace every wheel in wheel_dir by its byte-compiled version (in place)."""
    cache = repo / "build/wheels/pyc"
    cache.mkdir(parents=True, exist_ok=True)
    todo: list[tuple[Path, Path, str, Path | None]] = []  # wheel, unpacked dir, kind, cache file
    wheels = sorted(wheel_dir.glob("*.whl"))
    cached_as = {
        w: cache / hashlib.sha256(w.read_bytes() + repr(BOOT_IMPORTS).encode()).hexdigest()[:16] / w.name
        for w in wheels
        if not w.name.startswith(KEEP_SOURCE)
    }
    # All or none from the cache: finding the boot modules imports IPython & co, which needs every
    # third-party wheel unpacked side by side, not just the ones that changed.
    use_cache = all(c.is_file() for c in cached_as.values())
    with tempfile.TemporaryDirectory(prefix="pyc-") as tmp:
        for i, wheel in enumerate(wheels):
            keep = wheel not in cached_as
            cached = cached_as.get(wheel)
            if cached is not None and use_cache:
                shutil.copy2(cached, wheel)
                continue
            unpacked = Path(tmp) / str(i)
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(unpacked)
            todo.append((wheel, unpacked, "cached" if keep else "legacy", cached))
        if not todo:
            return
        spec = Path(tmp) / "spec.json"
        spec.write_text(
            json.dumps(
                {
                    **{kind: [str(d) for _, d, k, _ in todo if k == kind] for kind in ("legacy", "cached")},
                    "boot_imports": BOOT_IMPORTS,
                }
            )
        )
        result = subprocess.run(["node", str(PYCOMPILE), str(spec)], capture_output=True, text=True)
        if result.returncode:
            raise SystemExit(
                f"byte-compiling the kernel's wheels under Pyodide failed:\n"
                f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
            )
        for wheel, unpacked, kind, cached in todo:
            if kind == "legacy":
                _drop_compiled_sources(unpacked)
            _rezip(unpacked, wheel)
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(wheel, cached)
    log(f"byte-compiled {len(todo)} wheels for Pyodide")
