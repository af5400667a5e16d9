"""The learner's first check() on an exercise page, in real Chromium (bench/grader_check_browser.py).

A learner opens the exercise, the lab gets ready, they run the notebook's cells: the setup, the
starter as shipped (it fails), then the check. What they wait for is the check cell, from the
run to its report on the page, and then to its debugger (a failing check shows one). Timed
after two starts:
- cold: a fresh browser profile, "Start the lab" clicked at once (no warm-up while reading), so
  Python starts and imports everything itself;
- warm: the next visit in the same profile, the kernel restored from the snapshot the cold start
  stored.
Each repeat is a new profile. Beside the page's figures, the kernel's own: the check cell's time
in the kernel (IPython's pre/post_run_cell), and, once per start kind, where it went (the check's
steps one by one, on a kernel that has not checked yet).
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time

from hooks.site_build.browser import CHROMIUM, CHROMIUM_ARGS, SESSION_READY_JS

TIMEOUT_MS = 600_000
SNAPSHOT_SAVED_JS = """async () => {
  const cache = await caches.open("fault-lines-kernel");
  return (await cache.keys()).some((r) => r.url.endsWith("/memory"));
}"""
KERNEL_IDLE_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
  return Boolean(kernel && kernel.status === "idle");
}"""
# Runs the notebook's cell `index` as the learner does (the cell selected, Run) and times, from
# the run, the first report in its output, the end of the execution, and the debugger's widget
# (only a failing report has one). Resolves once all have come.
RUN_CELL_JS = """async (index) => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  const cell = notebook.widgets[index];
  const times = {};
  const start = performance.now();
  let settle;
  const settled = new Promise((resolve) => { settle = resolve; });
  const look = () => {
    const report = cell.node.querySelector(".fl-report");
    if (report && !("report_ms" in times)) times.report_ms = performance.now() - start;
    if (cell.node.querySelector(".fl-debugger") && !("debugger_ms" in times)) times.debugger_ms = performance.now() - start;
    const failed = report && report.classList.contains("fl-failed");
    if ("done_ms" in times && report && (!failed || "debugger_ms" in times)) settle();
  };
  const watch = new MutationObserver(look);
  watch.observe(cell.node, { childList: true, subtree: true });
  notebook.activeCellIndex = index;
  await app.commands.execute("notebook:run-cell");
  times.done_ms = performance.now() - start;
  look();
  await settled;
  watch.disconnect();
  return times;
}"""
# The kernel's time for each cell it runs, from IPython's own events, kept for the bench to read.
CELL_CLOCK_PY = """
import time as _fl_t
_fl_cell_s = {}
def _fl_pre(info, _c=_fl_t.perf_counter):
    _fl_cell_s[info.raw_cell] = -_c()
def _fl_post(result, _c=_fl_t.perf_counter):
    _fl_cell_s[result.info.raw_cell] = _fl_cell_s.get(result.info.raw_cell, 0) + _c()
get_ipython().events.register("pre_run_cell", _fl_pre)
get_ipython().events.register("post_run_cell", _fl_post)
"""
READ_CLOCK_PY = "print(__import__('json').dumps({k.strip(): v for k, v in _fl_cell_s.items()}['fl.check()']))"
RUN_JS = """async (index) => {
  const app = window.jupyterapp;
  app.shell.currentWidget.content.activeCellIndex = index;
  await app.commands.execute("notebook:run-cell");
}"""
# check()'s steps one at a time, as faultlines.notebook.check does them, on the learner's cells.
STEPS_PY = """
import json as _j, time as _t
_c, _T = _t.perf_counter, {}
_a = _c(); from faultlines.grader import exercise as _e, grade as _g, submission as _s; _T["import the grader"] = _c() - _a
_a = _c(); _ex = _e.load(EXERCISE); _T["load the exercise"] = _c() - _a
_a = _c(); _sub = _s.from_namespace(get_ipython().user_ns, _ex.entry); _T["read the notebook"] = _c() - _a
_a = _c(); _runs = _g.Runs(_ex, _sub); _rep = _g.grade(_ex, _sub, runs=_runs); _T["grade (the search)"] = _c() - _a
_a = _c(); import faultlines.debugger.widget; _T["import the debugger (ipywidgets)"] = _c() - _a
_a = _c(); _dbg = fl._debugger_for(_ex, _sub, _rep, _runs); _T["build the debugger"] = _c() - _a
_a = _c(); fl.CheckResult(_rep, fl.shared_code(_sub), _dbg)._repr_html_(); _T["the report's HTML"] = _c() - _a
_a = _c(); _runs = _g.Runs(_ex, _sub); _rep = _g.grade(_ex, _sub, runs=_runs); fl._debugger_for(_ex, _sub, _rep, _runs); _T["a second grade and debugger"] = _c() - _a
print("FL-BENCH", _j.dumps({k: round(v * 1000) for k, v in _T.items()}))
"""
EXECUTE_JS = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.ready;
  let out = "", error = "";
  const future = panel.sessionContext.session.kernel.requestExecute({ code, stop_on_error: true, store_history: false });
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += msg.content.text;
    if (msg.header.msg_type === "error") error += msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return { out, error };
}"""
CHECK_CELL, CELLS_BEFORE = 4, (1, 3)  # hooks/site_build/exercise_pages.py: setup 1, answer 3, check 4


def _kernel(frame, code: str) -> str:
    result = frame.evaluate(EXECUTE_JS, code)
    if result["error"]:
        raise RuntimeError(f"the kernel raised {result['error']}")
    return result["out"]


def _ready_lab(page, base_url: str, ex_id: str, cold: bool):
    """The exercise's lab, started by the learner's click, once its kernel is idle."""
    if cold:  # a learner who clicks at once: no warm-up made a snapshot while they read
        page.route(
            "**/lite/prefetch.json", lambda route: route.fulfill(body="[]", content_type="application/json")
        )
    page.goto(f"{base_url}exercises/{ex_id}/")
    page.get_by_role("button", name="Start the lab").click()
    frame_locator = page.frame_locator("iframe.fl-lab__iframe")
    frame_locator.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=TIMEOUT_MS)
    frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
    frame.wait_for_function(SESSION_READY_JS, timeout=TIMEOUT_MS)
    frame.wait_for_function(KERNEL_IDLE_JS, timeout=TIMEOUT_MS, polling=100)
    if cold:
        page.unroute("**/lite/prefetch.json")
    return frame


def _first_check(frame, ex_id: str, steps: bool) -> dict:
    """Run the notebook as the learner does; the check cell's figures (and check()'s steps)."""
    _kernel(frame, CELL_CLOCK_PY)
    for index in CELLS_BEFORE:
        frame.evaluate(RUN_JS, index)
    if steps:  # on this kernel's first check: check()'s own steps, not the cell
        out = _kernel(frame, f"EXERCISE = {ex_id!r}\n" + STEPS_PY)
        return json.loads(out.split("FL-BENCH ", 1)[1])
    times = frame.evaluate(RUN_CELL_JS, CHECK_CELL)
    times["kernel_ms"] = json.loads(_kernel(frame, READ_CLOCK_PY)) * 1000
    return times


def one_profile(playwright, base_url: str, ex_id: str, steps: bool = False) -> dict:
    """A fresh profile: the first check after its cold start, then after a warm one."""
    profile = tempfile.mkdtemp(prefix="bench-first-check-")
    try:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900}
        )
        page = context.pages[0] if context.pages else context.new_page()
        found: dict = {}
        t0 = time.monotonic()
        frame = _ready_lab(page, base_url, ex_id, cold=True)
        found["cold_ready_s"] = time.monotonic() - t0
        found["cold"] = _first_check(frame, ex_id, steps)
        page.wait_for_function(SNAPSHOT_SAVED_JS, timeout=TIMEOUT_MS)
        page.goto("about:blank")
        t0 = time.monotonic()
        frame = _ready_lab(page, base_url, ex_id, cold=False)
        found["warm_ready_s"] = time.monotonic() - t0
        found["warm"] = _first_check(frame, ex_id, steps)
        context.close()
        return found
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _median(rows: list[dict], key: str) -> float | None:
    values = [row[key] for row in rows if key in row]
    return statistics.median(values) if values else None


def _ms(value: float | None) -> str:
    return f"{value:.0f} ms" if value is not None else "-"


def _row(ex_id: str, label: str, kind: str, runs: list[dict], baseline: float | None) -> float | None:
    rows = [run[kind] for run in runs]
    report_ms = _median(rows, "report_ms")
    ready = statistics.median(run[f"{kind}_ready_s"] for run in runs)
    ratio = f"{report_ms / baseline:.2f}x" if baseline and report_ms is not None else ""
    each = [round(row["report_ms"]) for row in rows]
    print(
        f"{ex_id:<9} {label:<9} {kind:<5} {_ms(report_ms):>9} {_ms(_median(rows, 'debugger_ms')):>9} "
        f"{_ms(_median(rows, 'kernel_ms')):>10} {ready:>8.1f} s {ratio:>6}  {each}"
    )
    return report_ms


def report(playwright, sites: list[tuple[str, str]], ids: list[str], repeats: int, load) -> None:
    """`sites`: (label, base URL), the first the one measured, any other its baseline, taken in
    turn within each repeat so that the machine's load falls on both alike."""
    print(f"--- the first check() on a page (median of {repeats}, a fresh profile each), load {load():.1f}")
    print(
        f"{'exercise':<9} {'site':<9} {'start':<5} {'report':>9} {'debugger':>9} {'in kernel':>10} "
        f"{'lab ready':>10} {'ratio':>6}  each run's report"
    )
    for ex_id in ids:
        runs: dict[str, list[dict]] = {label: [] for label, _ in sites}
        for _ in range(repeats):
            for label, base_url in reversed(sites):
                runs[label].append(one_profile(playwright, base_url, ex_id))
        for kind in ("cold", "warm"):
            baseline = None
            for label, _ in reversed(sites):
                measured = _row(ex_id, label, kind, runs[label], baseline)
                baseline = baseline or measured
        print(f"  load {load():.1f}")
    for ex_id in ids:
        for label, base_url in sites:
            steps = one_profile(playwright, base_url, ex_id, steps=True)
            for kind in ("cold", "warm"):
                parts = ", ".join(f"{name} {ms} ms" for name, ms in steps[kind].items())
                print(f"  {ex_id} {label} {kind}, check()'s steps: {parts}")
