"""The debugger in real Chromium, on the built site: a failing check() on fault00's starter opens it
under the report; "Next event" and ArrowRight move the slider (the lab's own shortcuts do not
take the key); removing the decisive fault re-runs the schedule in the lab's kernel and the report
says the invariant holds; "Compare with a passing run" names the first difference; axe-core finds
nothing serious in it; at 390 px nothing overflows sideways. The same widget opens from a share
link and from the Playground (`fl.debug(run, scenario)`), and `replay --html` writes a page that
works with no network at all."""

from __future__ import annotations

import subprocess
import sys

import pytest
from site_browser import BOOT_TIMEOUT_MS, REPO, run_all_cells, start_lab, start_playground

from faultlines.grader import exercise, grade, share, submission
from hooks.site_build.browser import SESSION_READY_JS

pytestmark = pytest.mark.browser

AXE = REPO / "node_modules/axe-core/axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_ON_DEBUGGER_JS = """async (tags) => {
  const found = [];
  for (const region of document.querySelectorAll('[role=region][aria-label=Debugger]')) {
    const result = await axe.run(region, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    for (const v of result.violations) {
      if (v.impact === "serious" || v.impact === "critical") {
        found.push(v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
      }
    }
  }
  return found;
}"""
# Nothing wider than the viewport: the lab's document, the debugger, and nothing inside the
# debugger reaching past its right edge (clipped text would not show as the page's overflow).
# Only the lanes may be wider: they scroll sideways in their own box.
OVERFLOW_JS = """() => {
  const region = document.querySelector('[role=region][aria-label=Debugger]');
  const doc = document.documentElement;
  const edge = Math.min(doc.clientWidth, region.getBoundingClientRect().right);
  const out = [doc.scrollWidth - doc.clientWidth, region.getBoundingClientRect().right - doc.clientWidth];
  for (const el of region.querySelectorAll('*')) {
    if (el.closest('.fl-dbg-lanes') && !el.matches('.fl-dbg-lanes')) continue;
    if (el.closest('details:not([open])') && !el.matches('summary')) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0) out.push(box.right - edge);
  }
  return Math.max(...out);
}"""
REMOVE = "Remove fault crash clean#2/1 step=0"


def _starter(exercise_id: str) -> tuple[str, str]:
    ex = exercise.load(exercise_id)
    code = (REPO / f"exercises/{exercise_id}/starter.py").read_text()
    failure = grade.grade(
        ex, submission.from_source(code, "starter.py", ex.entry, ex.line_budget)
    ).first_failure
    assert failure is not None
    return failure.token, code


def _slider_value(slider) -> int:
    return int(slider.input_value())


def _step_and_remove(scope, page) -> None:
    """What a learner does first: step by button and by key, remove the fault, compare."""
    region = scope.get_by_role("region", name="Debugger")
    region.wait_for(timeout=BOOT_TIMEOUT_MS)
    # The widget's parts appear one by one: click once the what-if row (drawn last) is there.
    region.get_by_role("button", name=REMOVE).wait_for()
    slider = region.get_by_role("slider", name="Virtual time")
    start = _slider_value(slider)
    assert slider.get_attribute("aria-valuetext") == f"0.000 s, event {start} of 27"
    region.get_by_role("button", name="Next event").click()
    assert _slider_value(slider) == start + 1
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert _slider_value(slider) == start + 2
    assert slider.get_attribute("aria-valuetext") == f"0.000 s, event {start + 2} of 27"
    page.keyboard.press("Home")
    assert _slider_value(slider) == 1
    page.keyboard.press("End")
    assert _slider_value(slider) == 27
    assert region.locator(".fl-dbg-status").inner_text().startswith("Event 27 of 27")

    region.get_by_role("button", name=REMOVE).click()
    verdict = region.locator(".fl-dbg-head[data-schedule=''] .fl-dbg-verdict")
    verdict.wait_for(timeout=60_000)
    assert verdict.inner_text().startswith("✔ pipeline-finishes holds on this run")
    assert region.get_by_role("button", name=REMOVE).count() == 0
    region.get_by_role("button", name="Back to the failing run").click()
    region.locator(".fl-dbg[data-schedule='crash clean#2/1 step=0']").wait_for(timeout=60_000)
    region.locator(".fl-dbg-head[data-schedule='crash clean#2/1 step=0']").wait_for(timeout=60_000)

    region.get_by_role("checkbox", name="Compare with a passing run").check()
    difference = region.locator(".fl-dbg-diff")
    assert difference.inner_text().startswith(
        "The runs first differ at event 13 (0.000 s): in your run, clean#2/1 ends its worker 10003"
    )
    assert (
        "in your run without crash clean#2/1 step=0, clean#2/1 returns on node:2" in difference.inner_text()
    )


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_a_failing_check_opens_the_debugger(new_context, base_url, width, scheme):
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: run `make node-deps`")
    context, traffic = new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(base_url + "exercises/fault00/")
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    frame_locator.locator(".fl-report.fl-failed").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    _step_and_remove(frame_locator, page)

    region = frame_locator.get_by_role("region", name="Debugger")
    region.scroll_into_view_if_needed()
    frame.add_script_tag(path=str(AXE))
    assert frame.evaluate(AXE_ON_DEBUGGER_JS, WCAG_TAGS) == []
    assert frame.evaluate(OVERFLOW_JS) <= 1  # subpixel rounding
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert traffic.off_site() == []
    assert traffic.errors == []


def test_a_share_link_opens_the_debugger_in_the_playground(new_context, base_url):
    token, code = _starter("fault00")
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "exercises/replay/" + share.SharedRun("fault00", token, code).link(page=""))
    # The replay page writes the run's notebook into this browser, then names it in its links.
    edit = page.locator("a.fl-lab__playground[href*='path=replay-fault00-']")
    edit.wait_for(state="attached")
    page.goto(edit.evaluate("(a) => a.href"))
    # The playground runs a shared run's notebook as it opens: no cell is run here.
    page.wait_for_function(SESSION_READY_JS, timeout=BOOT_TIMEOUT_MS)
    page.locator(".fl-replay-run.fl-failed").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    _step_and_remove(page, page)
    assert traffic.off_site() == []


PLAYGROUND_CELL = """import miniray as ray
from miniray import sim
from faultlines import notebook as fl

def scenario():
    ray.init(num_cpus=2)

    @ray.remote(max_retries=0)
    def square(x):
        return x * x

    return ray.get([square.remote(i) for i in range(3)])

run = sim.run(scenario, faults=["crash square#2/1 step=0"])
fl.debug(run, scenario)
"""


def test_debug_on_a_run_in_the_playground(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "playground/")
    frame_locator, frame = start_playground(page)
    frame.evaluate(
        "() => window.jupyterapp.commands.execute('notebook:create-new', { kernelName: 'python' })"
    )
    frame.wait_for_function(SESSION_READY_JS, timeout=BOOT_TIMEOUT_MS)
    frame.evaluate(
        """(source) => {
          const cell = window.jupyterapp.shell.currentWidget.content.widgets[0];
          cell.model.sharedModel.setSource(source);
        }""",
        PLAYGROUND_CELL,
    )
    run_all_cells(frame)
    region = frame_locator.get_by_role("region", name="Debugger")
    region.wait_for(timeout=BOOT_TIMEOUT_MS)
    remove = region.get_by_role("button", name="Remove fault crash square#2/1 step=0")
    remove.wait_for()  # the widget's parts appear one by one: the what-if row is drawn last
    assert "WorkerCrashedError" in region.locator(".fl-dbg-verdict").inner_text()
    slider = region.get_by_role("slider", name="Virtual time")
    before = _slider_value(slider)
    region.get_by_role("button", name="Previous event").click()
    assert _slider_value(slider) == before - 1
    remove.click()
    region.locator(".fl-dbg-verdict", has_text="The run returned [0, 1, 4].").wait_for(timeout=60_000)
    assert traffic.off_site() == []


def test_replay_html_writes_a_page_that_works_offline(new_context, tmp_path):
    token, _ = _starter("fault00")
    target = tmp_path / "fault00.html"
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "replay", token, str(REPO / "exercises/fault00/starter.py"),
         "--html", str(target)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 1 and target.is_file(), result.stderr
    context, traffic = new_context(viewport={"width": 390, "height": 900}, offline=True)
    page = context.new_page()
    page.goto(target.as_uri())
    _step_and_remove(page, page)
    assert [u for u in traffic.requests if not u.startswith("file:")] == []
    assert traffic.errors == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


# Header cells whose words may break inside (overflow-wrap other than normal) or that overflow
# their column: on a phone "service" once showed as "ser vic e".
HEADERS_BROKEN_JS = """() => [...document.querySelectorAll('.fl-dbg-state th')].filter((th) =>
  getComputedStyle(th).overflowWrap !== 'normal' || th.scrollWidth > th.clientWidth + 1
).map((th) => th.textContent)"""


@pytest.mark.parametrize(
    ("exercise_id", "file"),
    [
        ("fault03", "starter.py"),
        ("fault05", "wrong/no_key.py"),
    ],  # fault03: a 56-character object id in the verdict
)
def test_a_replay_page_fits_a_phone_with_its_words_whole(new_context, tmp_path, exercise_id, file):
    path = REPO / "exercises" / exercise_id / file
    ex = exercise.load(exercise_id)
    report = grade.grade(ex, submission.from_file(path, ex.entry, ex.line_budget))
    assert report.first_failure is not None
    target = tmp_path / f"{exercise_id}.html"
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "replay", report.first_failure.token, str(path),
         "--html", str(target), "--unsafe-local"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 1 and target.is_file(), result.stderr
    context, _ = new_context(viewport={"width": 390, "height": 900}, color_scheme="dark", offline=True)
    page = context.new_page()
    page.goto(target.as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(HEADERS_BROKEN_JS) == []
