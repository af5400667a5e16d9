"""Page-load-to-first-executed-cell time and bytes downloaded: a lesson page vs plain JupyterLite.

    make site browser-deps && .venv/bin/python bench/site_load.py [--runs 3]

Lesson: site/lessons/01-mini-runtime/ (load the page, click "Start the lab", run the notebook).
Baseline: a plain JupyterLite notebook app built from the same pins with default settings except
the local Pyodide (the same static/pyodide folder, so both run offline); same notebook.
Cold = a fresh browser profile (empty HTTP disk cache and storage); warm = a reload in that profile.
The clock stops when the first code cell has executed (its prompt shows [1]). Bytes are counted
by the server (200 responses; 304s send no body), raw and as gzip -6 would send them.
Not part of `make test`: timings depend on the machine's load.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests/browser"))
sys.path.insert(0, str(REPO / "hooks"))
import site_server  # noqa: E402  (the server `make serve` and the tests use)
from site_browser import CHROMIUM, CHROMIUM_ARGS, SESSION_READY_JS  # noqa: E402  (as the tests)

LESSON_NOTEBOOK = "lessons/01_mini_runtime.ipynb"
BASELINE = REPO / "build/bench/baseline"


class CountingHandler(site_server.SiteHandler):
    served: list[Path] = []  # files sent with a 200 in the current run
    lock = threading.Lock()

    def send_head(self):
        response = super().send_head()
        if response is not None and hasattr(response, "name"):
            with self.lock:
                self.served.append(Path(response.name))
        return response


@functools.cache
def _sizes(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    return len(data), len(gzip.compress(data, compresslevel=6))


def build_baseline(lite_src: Path) -> None:
    """Plain `jupyter lite build`: default settings, our notebook, the local Pyodide folder."""
    src = REPO / "build/bench/baseline-src"
    shutil.rmtree(src, ignore_errors=True)
    (src / "files/lessons").mkdir(parents=True)
    shutil.copy2(lite_src / "files" / LESSON_NOTEBOOK, src / "files" / LESSON_NOTEBOOK)
    shutil.copytree(lite_src / "static/pyodide", src / "static/pyodide")
    # The one non-default setting besides the local Pyodide: expose the app object so the
    # benchmark can see when the notebook's session is ready (it changes nothing it loads).
    (src / "jupyter-lite.json").write_text(
        '{"jupyter-lite-schema-version": 0, "jupyter-config-data": {"exposeAppInBrowser": "true"}}'
    )
    jupyter = REPO / ".venv-site/bin/jupyter"
    subprocess.run(
        [str(jupyter), "lite", "build", "--lite-dir", str(src), "--output-dir", str(BASELINE)],
        cwd=src,
        check=True,
        capture_output=True,
    )


def first_cell_executed(page, open_lab) -> float:
    """Seconds from navigation start to the first code cell's [1] prompt."""
    started = time.monotonic()
    frame = open_lab(page)
    frame.wait_for_function("() => window.jupyterapp", timeout=180_000)
    frame.evaluate("() => window.jupyterapp.restored")
    frame.wait_for_function(SESSION_READY_JS, timeout=180_000)
    frame.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    prompt = frame.locator(".jp-CodeCell .jp-InputPrompt").first
    prompt.filter(has_text="[1]").wait_for(timeout=180_000)
    return time.monotonic() - started


def lesson_opener(base_url):
    def open_lab(page):
        page.goto(base_url + "lessons/01-mini-runtime/")
        page.get_by_role("button", name="Start the lab").click()
        return _frame(page)

    return open_lab


def baseline_opener(base_url):
    def open_lab(page):
        page.goto(base_url + "notebooks/index.html?path=" + LESSON_NOTEBOOK)
        return page.main_frame

    return open_lab


def _frame(page):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
        if frame:
            return frame
        page.wait_for_timeout(50)
    raise TimeoutError("the lab iframe never appeared")


def measure(chromium, directory: Path, opener, runs: int) -> dict:
    server, base_url = site_server.serve(directory, handler=CountingHandler)
    results = {"cold": [], "warm": [], "cold_bytes": [], "warm_bytes": []}
    try:
        for _ in range(runs):
            # A persistent profile (fresh per run) rather than new_context(): an off-the-record
            # context only has Chromium's in-memory HTTP cache, which does not keep entries as
            # large as pyodide.asm.wasm, so its "warm" reload re-downloaded 9.6 MB a learner's
            # browser (disk cache) would not.
            profile = tempfile.mkdtemp(prefix="bench-profile-")
            context = chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900}
            )
            page = context.pages[0] if context.pages else context.new_page()
            for kind in ("cold", "warm"):
                CountingHandler.served.clear()
                results[kind].append(first_cell_executed(page, opener(base_url)))
                raw = sum(_sizes(p)[0] for p in CountingHandler.served)
                zipped = sum(_sizes(p)[1] for p in CountingHandler.served)
                results[f"{kind}_bytes"].append((raw, zipped))
                page.goto("about:blank")
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
    finally:
        server.shutdown()
    return results


def summary(name: str, results: dict) -> dict:
    row = {"name": name}
    for kind in ("cold", "warm"):
        row[kind] = statistics.median(results[kind])
        row[f"{kind}_raw"] = statistics.median(b[0] for b in results[f"{kind}_bytes"])
        row[f"{kind}_gz"] = statistics.median(b[1] for b in results[f"{kind}_bytes"])
    print(
        f"{name:9} cold {row['cold']:5.1f}s  warm {row['warm']:5.1f}s  "
        f"cold bytes {row['cold_raw'] / 1e6:5.1f} MB ({row['cold_gz'] / 1e6:4.1f} MB gzip)  "
        f"warm bytes {row['warm_raw'] / 1e6:5.1f} MB ({row['warm_gz'] / 1e6:4.1f} MB gzip)  "
        f"runs: {[round(t, 1) for t in results['cold']]} / {[round(t, 1) for t in results['warm']]}"
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    site, lite_src = REPO / "site", REPO / "build/lite-src"
    if not (site / "lite").is_dir() or not (lite_src / "static/pyodide").is_dir():
        sys.exit("build the site first: make site")
    build_baseline(lite_src)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        lesson = summary("lesson", measure(playwright.chromium, site, lesson_opener, args.runs))
        baseline = summary("baseline", measure(playwright.chromium, BASELINE, baseline_opener, args.runs))
    for key in ("cold", "warm", "cold_gz", "warm_gz"):
        ratio = lesson[key] / baseline[key] if baseline[key] else float("nan")
        print(f"lesson/baseline {key:8} {ratio:5.2f}")


if __name__ == "__main__":
    main()
