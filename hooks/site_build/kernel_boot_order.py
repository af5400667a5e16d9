"""Let the Pyodide kernel import its Python packages before it mounts the contents drive.

Why: jupyterlite-pyodide-kernel 0.8.6 mounts the drive (/drive, backed by the browser's contents
store) and chdirs into it *before* `import pyodide_kernel` (IPython, jedi, ...). sys.path[0] is
'' (the cwd), so every fresh top-level import stats the drive's root, and each stat is a
synchronous request through the service worker to the page (~90 of them, ~3 s of a cold start
on 2 cores). Importing the kernel first, then mounting and chdir-ing into the notebook's folder,
keeps the drive (notebooks still see their files) and drops those requests.

The change is one exact-string edit of the kernel's worker bundles (pinned version): if the
string is not found, the build fails, so a kernel upgrade cannot silently lose or break it.
The bundle names keep their content hash; a browser holding the unpatched copy runs the same
kernel, just slower.
"""

from __future__ import annotations

from pathlib import Path

KERNEL_STATIC = "extensions/@jupyterlite/pyodide-kernel-extension/static"
ORIGINAL = (
    "await this.initRuntime(e),await this.initFilesystem(e),"
    "await this.initPackageManager(e),await this.initKernel(e)"
)
REORDERED = (
    "await this.initRuntime(e),await this.initPackageManager(e),"
    'await this._pyodide.runPythonAsync("import pyodide_kernel"),'
    "await this.initFilesystem(e),await this.initKernel(e)"
)
# The worker the kernel runs in without cross-origin isolation (how this site is served).
MUST_PATCH = "comlink.worker."


def reorder_boot(lite_dir: Path) -> list[str]:
    """Patch every kernel bundle holding the boot sequence; returns the patched file names."""
    patched = []
    for bundle in sorted((lite_dir / KERNEL_STATIC).glob("*.js")):
        text = bundle.read_text(encoding="utf-8")
        count = text.count(ORIGINAL)
        if count > 1:
            raise SystemExit(f"kernel_boot_order: {bundle.name} holds the boot sequence {count} times")
        if count:
            bundle.write_text(text.replace(ORIGINAL, REORDERED), encoding="utf-8")
            patched.append(bundle.name)
    if not any(name.startswith(MUST_PATCH) for name in patched):
        raise SystemExit(
            f"kernel_boot_order: boot sequence not found in {lite_dir / KERNEL_STATIC}/"
            f"{MUST_PATCH}*.js (jupyterlite-pyodide-kernel changed?)"
        )
    return patched
