"""Stage the self-hosted Pyodide distribution that JupyterLite's kernel loads from.

Result: <lite_src>/static/pyodide/ with Pyodide's core files (from the npm package), every wheel
the kernel boots from (PyPI, hash-pinned), the kernel's own shim wheels, miniray and faultlines
wheels built from this repo, all byte-compiled for Pyodide (wheel_bytecode); kernel_lock then writes the pyodide-lock.json
naming exactly those files. jupyterlite-pyodide-kernel copies that "well-known" folder into the site
and points the kernel at it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import wheel_bytecode

# The four files that make a booting Pyodide; the npm package ships no package wheels.
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Shims that ship inside the jupyterlite-pyodide-kernel wheel (its labextension's pypi/ folder).
KERNEL_SHIMS = ("piplite-", "pyodide_kernel-", "ipykernel-", "widgetsnbextension-4.")


def _run(cmd: list[str], what: str) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"{what} failed ({' '.join(cmd)}):\n{result.stdout}\n{result.stderr}")


def _kernel_extension_dir() -> Path:
    ext = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
    if not ext.is_dir():
        raise SystemExit(f"jupyterlite-pyodide-kernel's labextension not found at {ext}")
    return ext


def fetch_pypi_wheels(requirements: Path, dest: Path) -> None:
    """Download the hash-pinned pure wheels; pip refuses any file whose hash differs."""
    dest.mkdir(parents=True, exist_ok=True)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            "--require-hashes",
            "-r",
            str(requirements),
            "-d",
            str(dest),
        ],
        "downloading the kernel's wheels from PyPI",
    )


def pinned_wheels(requirements: Path, folder: Path) -> list[Path]:
    """The wheels in folder that kernel-wheels.txt pins (name==version): a wheel cached for an
    older pin stays in the download folder, and must not reach the site beside the new one."""
    pins = set()
    for line in requirements.read_text().splitlines():
        spec = line.split("#", 1)[0].split("--hash", 1)[0].strip()
        if spec:
            name, _, version = spec.partition("==")
            pins.add((re.sub(r"[-_.]+", "_", name).lower(), version.strip()))
    chosen = []
    for wheel in sorted(folder.glob("*.whl")):
        name, version = wheel.name.split("-")[:2]
        if (name.lower(), version) in pins:
            chosen.append(wheel)
    if len(chosen) != len(pins):
        raise SystemExit(
            f"{folder}: expected a wheel for each of the {len(pins)} pins in {requirements.name}"
        )
    return chosen


def miniray_source(repo: Path) -> Path:
    """Where miniray is built from: this repo, or MINIRAY_SRC (another checkout, for trying a
    branch of the runtime against the site without merging it)."""
    return Path(os.environ.get("MINIRAY_SRC") or repo).resolve()


def build_miniray_wheel(repo: Path, dest: Path) -> Path:
    """Wheel of this repo's miniray, so `import miniray` works in the browser with no %pip."""
    for old in dest.glob("miniray-*.whl"):
        old.unlink()
    _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest), str(repo)],
        "building the miniray wheel",
    )
    wheels = list(dest.glob("miniray-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one miniray wheel in {dest}, found {wheels}")
    return wheels[0]


def build_faultlines_wheel(repo: Path, dest: Path) -> Path:
    """Wheel of the course's own package (packaging/faultlines: the grader and the public half of
    each exercise), so `import faultlines` works in the browser too."""
    for old in dest.glob("faultlines-*.whl"):
        old.unlink()
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            str(dest),
            str(repo / "packaging/faultlines"),
        ],
        "building the faultlines wheel",
    )
    wheels = list(dest.glob("faultlines-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one faultlines wheel in {dest}, found {wheels}")
    return wheels[0]


def stage_pyodide(repo: Path, lite_src: Path) -> Path:
    """Fill <lite_src>/static/pyodide with the core files and the kernel's wheels, byte-compiled;
    returns that folder (kernel_lock.write_lock then names its wheels)."""
    npm_pyodide = repo / "node_modules/pyodide"
    if not (npm_pyodide / "pyodide.mjs").is_file():
        raise SystemExit(f"{npm_pyodide} is missing: run `npm ci` (make node-deps) first")
    out = lite_src / "static/pyodide"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy2(npm_pyodide / name, out / name)

    cache = repo / "build/wheels"
    requirements = repo / "playground/kernel-wheels.txt"
    fetch_pypi_wheels(requirements, cache / "pypi")
    for wheel in pinned_wheels(requirements, cache / "pypi"):
        shutil.copy2(wheel, out / wheel.name)
    for wheel in (_kernel_extension_dir() / "static/pypi").glob("*.whl"):
        if wheel.name.startswith(KERNEL_SHIMS):
            shutil.copy2(wheel, out / wheel.name)
    miniray = build_miniray_wheel(miniray_source(repo), cache / "miniray")
    shutil.copy2(miniray, out / miniray.name)
    faultlines = build_faultlines_wheel(repo, cache / "faultlines")
    shutil.copy2(faultlines, out / faultlines.name)
    wheel_bytecode.compile_wheels(out, repo)
    return out
