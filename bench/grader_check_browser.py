"""The check() benchmark in real Chromium: the built site's lab, the learner's own kernel.

Drives site/ (built by `make site`) as a learner would: an exercise page, "Start the lab", then
code sent to the notebook's kernel. Three figures:
- the learner's first check() on a page (first_check.py): the notebook's own cells run in the lab
  once it is ready, the check cell timed from the run to its report on the page, after a cold
  start (a fresh browser profile, clicking at once) and a warm one (the next visit, the kernel
  restored from this browser's snapshot), median of --first-repeats, with where the kernel's
  time went (--first-exercises; none: skipped);
- per exercise, a full public check of its reference (median of --repeats) and one clean run of
  the same scenario, timed inside the kernel by the same function as in CPython and Node
  (grader_check.time_check);
- the first check() of the reference after a warm start: how long `from faultlines import
  notebook` and the first check take, against a later check.

    .venv/bin/python bench/grader_check_browser.py [--repeats 5] [--exercises fault05 fault06]
        [--first-repeats 5] [--first-exercises fault05 fault09] [--first-only]

Wall-clock figures on a shared machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import first_check  # noqa: E402
from bench.grader_check import time_check  # noqa: E402
from hooks.site_build import serve as site_server  # noqa: E402
from hooks.site_build.browser import CHROMIUM, CHROMIUM_ARGS, SESSION_READY_JS  # noqa: E402

SITE = REPO / "site"
TIMEOUT_MS = 600_000
SNAPSHOT_SAVED_JS = """async () => {
  const cache = await caches.open("fault-lines-kernel");
  return (await cache.keys()).some((r) => r.url.endsWith("/memory"));
}"""
EXECUTE_JS = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.ready;
  let out = "", error = "";
  const future = panel.sessionContext.session.kernel.requestExecute({ code, stop_on_error: true });
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += msg.content.text;
    if (msg.header.msg_type === "error") error += msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return { out, error };
}"""
FIRST_CHECK_PY = """
import time as _t
_t0 = _t.perf_counter()
from faultlines import notebook as fl
_t1 = _t.perf_counter()
fl.start({ex!r})
"""
TIMED_CHECK_PY = """
_t2 = _t.perf_counter()
fl.check()
_t3 = _t.perf_counter()
print("FL-BENCH", __import__("json").dumps({{"import_s": _t1 - _t0, "first_check_s": _t3 - _t2}}))
_t4 = _t.perf_counter()
fl.check()
print("FL-BENCH", __import__("json").dumps({{"later_check_s": _t.perf_counter() - _t4}}))
"""


def _run(frame, code: str) -> str:
    result = frame.evaluate(EXECUTE_JS, code)
    if result["error"]:
        raise RuntimeError(f"the kernel raised {result['error']}")
    return result["out"]


def _bench_lines(out: str) -> dict:
    found: dict = {}
    for line in out.splitlines():
        if line.startswith("FL-BENCH "):
            found.update(json.loads(line[len("FL-BENCH ") :]))
    return found


def _open_lab(page, base_url: str, ex_id: str):
    page.goto(f"{base_url}exercises/{ex_id}/")
    page.get_by_role("button", name="Start the lab").click()
    page.frame_locator("iframe.fl-lab__iframe").locator(".jp-Notebook .jp-Cell").first.wait_for(
        timeout=TIMEOUT_MS
    )
    frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
    frame.wait_for_function("() => window.jupyterapp", timeout=TIMEOUT_MS)
    frame.wait_for_function(SESSION_READY_JS, timeout=TIMEOUT_MS)
    _run(frame, "1")  # the kernel has booted
    return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--exercises", nargs="*", default=None)
    parser.add_argument("--first-repeats", type=int, default=5)
    parser.add_argument("--first-exercises", nargs="*", default=["fault05", "fault09"])
    parser.add_argument("--first-only", action="store_true", help="only the learner's first check()")
    parser.add_argument(
        "--baseline-site", metavar="DIR", help="another built site (an earlier build): its first check beside"
    )
    args = parser.parse_args()
    if not (SITE / "lite/static/pyodide/pyodide-lock.json").is_file():
        raise SystemExit("grader_check_browser: build the site first (make site)")
    from playwright.sync_api import sync_playwright

    from faultlines.grader import exercise

    ids = args.exercises or exercise.exercise_ids()
    server, base_url = site_server.serve(SITE)
    profile = tempfile.mkdtemp(prefix="bench-profile-")
    try:
        with sync_playwright() as playwright:
            if args.first_exercises:
                sites = [("this", base_url)]
                if args.baseline_site:
                    baseline_server, baseline_url = site_server.serve(Path(args.baseline_site))
                    sites.append(("baseline", baseline_url))
                first_check.report(
                    playwright, sites, args.first_exercises, args.first_repeats, lambda: os.getloadavg()[0]
                )
                if args.baseline_site:
                    baseline_server.shutdown()
                    baseline_server.server_close()
            if args.first_only:
                return
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900}
            )
            page = context.pages[0] if context.pages else context.new_page()
            # A cold boot saves the kernel's snapshot; the page after it starts warm, as a
            # learner's second visit does.
            _open_lab(page, base_url, "fault05")
            page.wait_for_function(SNAPSHOT_SAVED_JS, timeout=TIMEOUT_MS)
            page.goto("about:blank")
            frame = _open_lab(page, base_url, "fault05")
            reference = (REPO / "exercises/fault05/reference.py").read_text()
            _run(frame, FIRST_CHECK_PY.format(ex="fault05"))
            _run(frame, reference)
            first = _bench_lines(_run(frame, TIMED_CHECK_PY.format()))
            print(f"--- Chromium (warm kernel), load average {os.getloadavg()[0]:.1f}")
            print(
                f"first check of fault05: import faultlines.notebook {first['import_s'] * 1000:.0f} ms, "
                f"first check() {first['first_check_s'] * 1000:.0f} ms, "
                f"a later check() {first['later_check_s'] * 1000:.0f} ms"
            )
            _run(frame, inspect.getsource(time_check))
            print(f"{'exercise':<9} {'schedules':>9} {'check (median)':>15} {'clean run':>11} {'ratio':>7}")
            for ex_id in ids:
                source = (REPO / "exercises" / ex_id / "reference.py").read_text()
                call = f"print('FL-BENCH', __import__('json').dumps(time_check({ex_id!r}, {source!r}, {args.repeats})))"
                row = _bench_lines(_run(frame, call))
                print(
                    f"{ex_id:<9} {row['schedules']:>9} {row['check_s'] * 1000:>12.0f} ms "
                    f"{row['clean_s'] * 1000:>8.2f} ms {row['check_s'] / row['clean_s']:>7.0f}"
                )
            context.close()
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
