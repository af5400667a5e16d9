"""The JupyterLite parts of the lab's build (the order is in pipeline.build_lab): the lite dir
is staged under build/lite-src so that nothing generated lands in playground/ (its config files,
the shipped notebooks in files/, the self-hosted Pyodide in static/pyodide), then `jupyter lite
build` makes the lab and notebook apps, which get the page script and the prefetch list.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

# Only these labextensions go into the site: the kernel and the widget manager. Everything else
# that happens to be installed in the build venv (jupytext's, pygments') is left out.
FEDERATED_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager")
CONFIG_FILES = ("jupyter-lite.json", "overrides.json")
# The apps' pages that get playground/lab_page.js (saving as the learner goes; the reader's scheme)
# and playground/lab_page.css (the menu bar on a phone).
PAGE_SCRIPT = "lab-page.js"
PAGE_STYLE = "lab-page.css"
APP_PAGES = ("lab/index.html", "notebooks/index.html")
# The debugger's front end (faultlines/debugger/static): it steps through every debugger a
# notebook shows (a failing check(), a replay, debug(run)), so the kernel sends none of it.
DEBUGGER_STATIC = "faultlines/debugger/static"
DEBUGGER_SCRIPT = "fl-debugger.js"
DEBUGGER_STYLE = "fl-debugger.css"
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


def pyodide_cdn_url() -> str:
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
    """Copy lab_page.js and lab_page.css, and the debugger's front end, into the lite build and
    load them from each app's page."""
    shutil.copy2(repo / "playground/lab_page.js", out_dir / PAGE_SCRIPT)
    shutil.copy2(repo / "playground/lab_page.css", out_dir / PAGE_STYLE)
    shutil.copy2(repo / DEBUGGER_STATIC / "debugger.js", out_dir / DEBUGGER_SCRIPT)
    shutil.copy2(repo / DEBUGGER_STATIC / "debugger.css", out_dir / DEBUGGER_STYLE)
    # The scripts first: a script after a stylesheet waits for it, holding up the page's parsing.
    tags = (
        f'<script src="../{PAGE_SCRIPT}"></script>\n  <script src="../{DEBUGGER_SCRIPT}"></script>\n'
        f'  <link rel="stylesheet" href="../{PAGE_STYLE}">\n  <link rel="stylesheet" href="../{DEBUGGER_STYLE}">'
    )
    for name in APP_PAGES:
        page = out_dir / name
        html = page.read_text(encoding="utf-8")
        if html.count("</head>") != 1:
            raise SystemExit(f"lite build: {name} has no single </head> to load {PAGE_SCRIPT} before")
        page.write_text(html.replace("</head>", f"  {tags}\n</head>"), encoding="utf-8")


def write_prefetch_list(out_dir: Path) -> list[str]:
    pyodide = out_dir / "static/pyodide"
    found = [path for pattern in PREFETCH_NAMES for path in sorted(pyodide.glob(pattern))]
    if len(found) != len(PREFETCH_NAMES):
        raise SystemExit(f"lite build: the prefetch list expects one file for each of {PREFETCH_NAMES}")
    urls = [path.relative_to(out_dir).as_posix() for path in found]
    (out_dir / PREFETCH_LIST).write_text(json.dumps(urls, indent=1), encoding="utf-8")
    return urls


def run_lite_build(repo: Path, lite_src: Path, out_dir: Path) -> None:
    """`jupyter lite build` of the staged lite dir (notebooks and Pyodide in place) into out_dir."""
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
