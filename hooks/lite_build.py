"""Build the JupyterLite playground (lab + notebook apps) from playground/ into build/lite.

The lite dir is staged under build/lite-src so that nothing generated lands in playground/:
its config files, the shipped notebooks (files/) and the self-hosted Pyodide (static/pyodide).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import exercise_pages
import kernel_boot
import kernel_boot_order
import kernel_dist
import lesson_notebooks

# Only these labextensions go into the site: the kernel and the widget manager. Everything else
# that happens to be installed in the build venv (jupytext's, pygments') is left out.
FEDERATED_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager")
CONFIG_FILES = ("jupyter-lite.json", "overrides.json")
# The apps' pages that get playground/lab_page.js (saving as the learner goes; the reader's scheme).
PAGE_SCRIPT = "lab-page.js"
APP_PAGES = ("lab/index.html", "notebooks/index.html")
# What a lesson page fetches ahead of "Start the lab" (docs/javascripts/lab.js): the kernel's
# files, most of a cold start's download. Relative to the lite build's root.
PREFETCH_LIST = "prefetch.json"
PREFETCH_NAMES = (
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "boot-packages.*.pack.gz",
    "pyodide.asm.mjs",
    "pyodide.mjs",
    "kernel-boot.mjs",
    "pyodide-lock.json",
)


def _cdn_base_url() -> str:
    # Taken from the installed kernel package rather than written here: the matplotlib-family
    # lock entries are the only place the site may name Pyodide's CDN.
    from jupyterlite_pyodide_kernel.constants import PYODIDE_CDN_URL

    return PYODIDE_CDN_URL


def _write_build_config(repo: Path, lite_src: Path) -> None:
    config = json.loads((repo / "playground/jupyter_lite_config.json").read_text())
    labextensions = Path(sys.prefix) / "share/jupyter/labextensions"
    build = config.setdefault("LiteBuildConfig", {})
    build["federated_extensions"] = [str(labextensions / name) for name in FEDERATED_EXTENSIONS]
    build["contents"] = [str(lite_src / "files")]
    (lite_src / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))
    for name in CONFIG_FILES:
        shutil.copy2(repo / "playground" / name, lite_src / name)
    # The notebook app's own settings (merged by the lite build over the generated ones): the
    # lesson iframes run this app, so what it leaves out speeds up every lesson's start.
    (lite_src / "notebooks").mkdir(exist_ok=True)
    shutil.copy2(repo / "playground/notebooks/jupyter-lite.json", lite_src / "notebooks/jupyter-lite.json")


def add_page_script(repo: Path, out_dir: Path) -> None:
    """Copy lab_page.js into the lite build and load it from each app's page."""
    shutil.copy2(repo / "playground/lab_page.js", out_dir / PAGE_SCRIPT)
    tag = f'<script src="../{PAGE_SCRIPT}"></script>'
    for name in APP_PAGES:
        page = out_dir / name
        html = page.read_text(encoding="utf-8")
        if html.count("</head>") != 1:
            raise SystemExit(f"lite build: {name} has no single </head> to load {PAGE_SCRIPT} before")
        page.write_text(html.replace("</head>", f"  {tag}\n</head>"), encoding="utf-8")


def write_prefetch_list(out_dir: Path) -> list[str]:
    pyodide = out_dir / "static/pyodide"
    found = [path for pattern in PREFETCH_NAMES for path in sorted(pyodide.glob(pattern))]
    if len(found) != len(PREFETCH_NAMES):
        raise SystemExit(f"lite build: the prefetch list expects one file for each of {PREFETCH_NAMES}")
    urls = [path.relative_to(out_dir).as_posix() for path in found]
    (out_dir / PREFETCH_LIST).write_text(json.dumps(urls, indent=1), encoding="utf-8")
    return urls


def build_lite(repo: Path, out_dir: Path, log=print) -> dict[str, lesson_notebooks.ShippedNotebook]:
    """Build the lite site into out_dir; returns the shipped notebooks keyed by stem."""
    started = time.monotonic()
    lite_src = repo / "build/lite-src"
    shutil.rmtree(lite_src, ignore_errors=True)
    lite_src.mkdir(parents=True)
    notebooks = lesson_notebooks.write_notebooks(repo, lite_src / "files")
    notebooks.update(exercise_pages.write_notebooks(repo, lite_src / "files"))
    lesson_notebooks.execute_lessons(repo, notebooks)
    kernel_dist.stage_pyodide(repo, lite_src, _cdn_base_url())
    _write_build_config(repo, lite_src)
    shutil.rmtree(out_dir, ignore_errors=True)
    jupyter = Path(sys.executable).parent / "jupyter"
    result = subprocess.run(
        [str(jupyter), "lite", "build", "--lite-dir", str(lite_src), "--output-dir", str(out_dir)],
        cwd=lite_src,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise SystemExit(f"jupyter lite build failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    add_page_script(repo, out_dir)
    patched = kernel_boot_order.reorder_boot(out_dir)
    log(f"Kernel boot reordered (imports before the drive mount) in {', '.join(patched)}")
    log(f"Kernel loader installed (warm starts from snapshot {kernel_boot.install_loader(repo, out_dir)})")
    write_prefetch_list(out_dir)
    log(f"JupyterLite built in {time.monotonic() - started:.1f}s with {len(notebooks)} notebooks")
    return notebooks
