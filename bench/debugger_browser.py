"""The debugger's two costs, in real Chromium on the built site's lab, against the report alone.

A learner runs check() on code whose failing run has 199 events (fault00 with 43 extra tasks
before the pipeline: DEBUG_200 below). Timed in the page, from the moment the cell is sent to
the kernel until what the learner sees is there:
- the report alone: check() with the debugger turned off, until the report is on screen;
- the report and the debugger: check(), until the debugger's slider answers (its front end set
  it up). "Open time" is the difference (the median over pairs run back to back): what the
  debugger adds to a failing check(); its Python half is also timed inside the kernel;
- a what-if: "Remove fault ..." clicked, until the re-run's verdict is on screen, and "Back to
  the failing run" the same way (the run re-run in the kernel, the view redrawn).
Each figure is the median of --repeats, with the report alone as the baseline of the same run.

    .venv/bin/python bench/debugger_browser.py [--repeats 7]

Wall-clock figures on a shared machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hooks.site_build import serve as site_server  # noqa: E402
from hooks.site_build.browser import CHROMIUM, CHROMIUM_ARGS, SESSION_READY_JS  # noqa: E402

SITE = REPO / "site"
TIMEOUT_MS = 600_000
DEBUG_200 = """
import miniray as ray


def make_pipeline():
    @ray.remote(max_retries=0)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=0)
    def count(text):
        return len(text.split())

    @ray.remote
    def warm(i):
        return i

    return clean, count, warm


def run_pipeline(stages, lines):
    clean, count, warm = stages
    ray.get([warm.remote(i) for i in range(43)])
    refs = [count.remote(clean.remote(line)) for line in lines]
    return ray.get(refs)
"""
# Sends `code` to the notebook's kernel as a new cell's output would show, and times until the
# selector `until` matches an element added after the send (a fresh report, a fresh debugger).
TIME_CELL_JS = """async ([code, until]) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const notebook = panel.content;
  const cell = notebook.widgets[notebook.widgets.length - 1];
  const before = new Set(document.querySelectorAll(until));
  cell.model.sharedModel.setSource(code);
  notebook.activeCellIndex = notebook.widgets.length - 1;
  const start = performance.now();
  const done = new Promise((resolve) => {
    const check = () => [...document.querySelectorAll(until)].some((e) => !before.has(e));
    if (check()) return resolve(performance.now());
    const observer = new MutationObserver(() => {
      if (check()) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  window.jupyterapp.commands.execute("notebook:run-cell");
  return (await done) - start;
}"""
# Clicks a button of the newest debugger and times until `until` matches inside it.
TIME_CLICK_JS = """async ([name, until]) => {
  const boxes = document.querySelectorAll(".fl-debugger-box");
  const box = boxes[boxes.length - 1];
  const button = [...box.querySelectorAll("button")].find((b) => b.textContent.trim() === name);
  const start = performance.now();
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (box.querySelector(until)) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(box, { childList: true, subtree: true, attributes: true });
  });
  button.click();
  return (await done) - start;
}"""
EXECUTE_JS = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  let error = "";
  const future = panel.sessionContext.session.kernel.requestExecute({ code, stop_on_error: true });
  future.onIOPub = (msg) => { if (msg.header.msg_type === "error") error += msg.content.evalue; };
  await future.done;
  return error;
}"""
# The debugger's Python half alone, timed in the kernel: the failing schedule run again with code
# links, the passing run, the fold and the view (what check() adds before anything is drawn).
KERNEL_OPEN = """
import json as _json, time as _t
from faultlines.grader import exercise as _exercise, grade as _grade, submission as _submission
_ex = _exercise.load("fault00")
_sub = _submission.from_namespace(globals(), _ex.entry)
_report = _grade.grade(_ex, _sub)
_times = []
for _ in range({repeats}):
    _t0 = _t.perf_counter()
    fl._debugger_for(_ex, _sub, _report)
    _times.append((_t.perf_counter() - _t0) * 1000)
print("FL-BENCH", _json.dumps(sorted(_times)[len(_times) // 2]))
"""
PRINTED_JS = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  let out = "";
  const future = panel.sessionContext.session.kernel.requestExecute({ code, stop_on_error: true });
  future.onIOPub = (msg) => { if (msg.header.msg_type === "stream") out += msg.content.text; };
  await future.done;
  return out;
}"""
OFF = "fl._debugger_for_on = fl._debugger_for\nfl._debugger_for = lambda *a: None\nfl.check()"
ON = "fl._debugger_for = fl._debugger_for_on\nfl.check()"
REMOVE = "Remove fault crash clean#2/1 step=0"
BACK = "Back to the failing run"


def _run(frame, code: str) -> None:
    error = frame.evaluate(EXECUTE_JS, code)
    if error:
        raise RuntimeError(f"the kernel raised {error}")


def _printed(frame, code: str) -> str:
    return frame.evaluate(PRINTED_JS, code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    if not (SITE / "lite/static/pyodide/pyodide-lock.json").is_file():
        raise SystemExit("debugger_browser: build the site first (make site)")
    from playwright.sync_api import sync_playwright

    server, base_url = site_server.serve(SITE)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base_url}exercises/fault00/")
            page.get_by_role("button", name="Start the lab").click()
            page.frame_locator("iframe.fl-lab__iframe").locator(".jp-Notebook .jp-Cell").first.wait_for(
                timeout=TIMEOUT_MS
            )
            frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
            frame.wait_for_function(SESSION_READY_JS, timeout=TIMEOUT_MS)
            _run(frame, 'from faultlines import notebook as fl\nfl.start("fault00")\n' + DEBUG_200)
            _run(frame, "_r = fl.check()")  # warm: the imports, ipywidgets, the first grading
            alone, with_debugger, remove, back = [], [], [], []
            for _ in range(args.repeats):
                alone.append(frame.evaluate(TIME_CELL_JS, [OFF, ".fl-report.fl-failed"]))
                with_debugger.append(frame.evaluate(TIME_CELL_JS, [ON, ".fl-dbg[data-fl-dbg-ready]"]))
                remove.append(
                    frame.evaluate(TIME_CLICK_JS, [REMOVE, ".fl-dbg-head[data-schedule=''] .fl-dbg-good"])
                )
                back.append(
                    frame.evaluate(TIME_CLICK_JS, [BACK, ".fl-dbg-head[data-schedule^='crash'] .fl-dbg-bad"])
                )
            printed = _printed(frame, KERNEL_OPEN.format(repeats=args.repeats))
            kernel_open = float(printed.split("FL-BENCH", 1)[1])
            events = frame.evaluate(
                "() => { const d = document.querySelectorAll('.fl-dbg'); return d[d.length - 1].dataset.events; }"
            )
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    base = statistics.median(alone)
    full = statistics.median(with_debugger)
    # Each pair ran back to back: the median of the pairs' differences is steadier on a busy
    # machine than the difference of the two medians.
    added = statistics.median(w - a for w, a in zip(with_debugger, alone))
    print(
        f"--- Chromium, the site's lab (fault00, a failing run of {events} events), medians of {args.repeats}"
    )
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'the report alone (baseline)':<44} {base:8.0f} ms")
    print(f"{'the report and the debugger':<44} {full:8.0f} ms  {full / base:5.2f}x")
    print(f"{'open time: what the debugger adds (pairs)':<44} {added:8.0f} ms  (goal: within 300 ms)")
    print(f"{'  of which in the kernel (Python, Pyodide)':<44} {kernel_open:8.0f} ms")
    for name, times in (
        ("what-if: remove the fault, verdict shown", remove),
        ("what-if: back to the failing run", back),
    ):
        median = statistics.median(times)
        print(f"{name:<44} {median:8.0f} ms  {median / base:5.2f}x  (goal: within 500 ms)")


if __name__ == "__main__":
    main()
