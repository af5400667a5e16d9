"""Time to the first cell's result, and bytes downloaded: a lesson page vs plain JupyterLite,
on this machine's loopback and over a typical home link, in the same run.

    make site browser-deps && .venv/bin/python bench/site_load.py [--runs 3] [--read 20]

Lesson: site/lessons/01_mini_runtime/, timed two ways:
- "nav": from navigation to the page, clicking "Start the lab" at once;
- "click": from the click on "Start the lab" after `--read` seconds of reading the page (the
  page prefetches the kernel's files meanwhile).
Baseline: a plain JupyterLite notebook app built from the same pins with default settings except
the local Pyodide (the same static/pyodide folder, so both run offline); same notebook, timed
from navigation.
Cold = a fresh browser profile (empty HTTP disk cache and storage); warm = the same again in
that profile. The clock stops when the first code cell has executed (its prompt shows [1]).
Links: "local" (loopback) and "home" (20 Mbit/s shared by all connections, 40 ms per
request), simulated in the server (hooks/site_build/serve.py, Link): Chromium's own throttling misses
the fetches a service worker makes. Bytes are the response bodies the server sent (gzip for
text and wasm, as `make serve` and static hosts send them; 304s send none).
Not part of `make test`: timings depend on the machine's load.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hooks.site_build import serve as site_server  # the server `make serve` and the tests use
from hooks.site_build.browser import CHROMIUM, CHROMIUM_ARGS, SESSION_READY_JS  # as the tests

REPO = Path(__file__).resolve().parents[1]

LESSON_NOTEBOOK = "lessons/01_mini_runtime.ipynb"
LESSON_PAGE = "lessons/01_mini_runtime/"
BASELINE = REPO / "build/bench/baseline"
LINKS: dict[str, site_server.Link | None] = {
    "local": None,
    "home": site_server.Link(rate=20e6 / 8, latency=0.040),
}
TIMEOUT_MS = 300_000


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


def _run_first_cell(frame) -> None:
    frame.wait_for_function("() => window.jupyterapp", timeout=TIMEOUT_MS)
    frame.evaluate("() => window.jupyterapp.restored")
    frame.wait_for_function(SESSION_READY_JS, timeout=TIMEOUT_MS)
    frame.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    prompt = frame.locator(".jp-CodeCell .jp-InputPrompt").first
    prompt.filter(has_text="[1]").wait_for(timeout=TIMEOUT_MS)


def _lab_frame(page):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
        if frame:
            return frame
        page.wait_for_timeout(50)
    raise TimeoutError("the lab iframe never appeared")


def lesson_from_navigation(base_url: str, read: float) -> Callable:
    def timed(page) -> float:
        started = time.monotonic()
        page.goto(base_url + LESSON_PAGE)
        page.get_by_role("button", name="Start the lab").click()
        _run_first_cell(_lab_frame(page))
        return time.monotonic() - started

    return timed


def lesson_from_click(base_url: str, read: float) -> Callable:
    def timed(page) -> float:
        page.goto(base_url + LESSON_PAGE)
        page.wait_for_timeout(read * 1000)  # the learner reads; the page prefetches
        started = time.monotonic()
        page.get_by_role("button", name="Start the lab").click()
        _run_first_cell(_lab_frame(page))
        return time.monotonic() - started

    return timed


def baseline_from_navigation(base_url: str, read: float) -> Callable:
    def timed(page) -> float:
        started = time.monotonic()
        page.goto(base_url + "notebooks/index.html?path=" + LESSON_NOTEBOOK)
        _run_first_cell(page.main_frame)
        return time.monotonic() - started

    return timed


SCENARIOS = {
    "lesson nav": (lambda: REPO / "site", lesson_from_navigation),
    "lesson click": (lambda: REPO / "site", lesson_from_click),
    "baseline": (lambda: BASELINE, baseline_from_navigation),
}


def measure(chromium, directory: Path, scenario: Callable, link, runs: int, read: float) -> dict:
    sent: list[int] = []
    server, base_url = site_server.serve(directory, handler=site_server.handler_for("/", link, sent))
    results: dict[str, list[float]] = {"cold": [], "warm": [], "cold_bytes": [], "warm_bytes": []}
    try:
        for _ in range(runs):
            # A persistent profile (fresh per run) rather than new_context(): an off-the-record
            # context only has Chromium's in-memory HTTP cache, which does not keep entries as
            # large as pyodide.asm.wasm, so its "warm" visit re-downloaded 9.6 MB a learner's
            # browser (disk cache) would not.
            profile = tempfile.mkdtemp(prefix="bench-profile-")
            context = chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900}
            )
            page = context.pages[0] if context.pages else context.new_page()
            for kind in ("cold", "warm"):
                sent.clear()
                results[kind].append(scenario(base_url, read)(page))
                results[f"{kind}_bytes"].append(sum(sent))
                page.goto("about:blank")
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
    finally:
        server.shutdown()
        server.server_close()
    return results


def summary(link: str, name: str, results: dict) -> dict:
    row = {key: statistics.median(values) for key, values in results.items()}
    print(
        f"{link:5} {name:12} cold {row['cold']:5.1f}s  warm {row['warm']:5.1f}s  "
        f"sent cold {row['cold_bytes'] / 1e6:5.1f} MB  warm {row['warm_bytes'] / 1e6:5.1f} MB  "
        f"runs: {[round(t, 1) for t in results['cold']]} / {[round(t, 1) for t in results['warm']]}",
        flush=True,
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--read", type=float, default=20.0, help="seconds of reading before the click")
    parser.add_argument("--links", default=",".join(LINKS), help=f"comma-separated, of {sorted(LINKS)}")
    args = parser.parse_args()
    links = args.links.split(",")
    if args.runs < 1 or any(name not in LINKS for name in links):
        parser.exit(2, f"--runs must be 1 or more and --links a list of {sorted(LINKS)}\n")
    site, lite_src = REPO / "site", REPO / "build/lite-src"
    if not (site / "lite").is_dir() or not (lite_src / "static/pyodide").is_dir():
        parser.exit(2, "build the site first: make site\n")
    build_baseline(lite_src)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        for link in links:
            rows = {
                name: summary(
                    link,
                    name,
                    measure(playwright.chromium, where(), timed, LINKS[link], args.runs, args.read),
                )
                for name, (where, timed) in SCENARIOS.items()
            }
            base = rows["baseline"]
            for name in ("lesson nav", "lesson click"):
                ratios = "  ".join(
                    f"{key} {rows[name][key] / base[key]:4.2f}" if base[key] else f"{key} n/a"
                    for key in ("cold", "warm", "cold_bytes", "warm_bytes")
                )
                print(f"{link:5} {name:12} / baseline: {ratios}", flush=True)


if __name__ == "__main__":
    main()
