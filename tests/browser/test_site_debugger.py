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
    # A run that passes offers nothing to compare it with (issue 32).
    assert region.get_by_role("checkbox", name="Compare with a passing run").count() == 0
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


# Each box as [left, right] in the page, for the parts of the lanes a reader must see whole.
LANES_BOXES_JS = """(region) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const lanes = region.querySelector('.fl-dbg-lanes');
  const pin = region.querySelector('.fl-dbg-pin');
  return {
    lanes: box(lanes), scrolls: lanes.scrollWidth > lanes.clientWidth,
    column: box(pin.querySelector('.fl-dbg-pin-column')),
    labels: [...pin.querySelectorAll('text')].map((t) => [t.textContent, ...box(t)]),
    bad: box(region.querySelector('.fl-dbg-bad-ink')), badLine: box(region.querySelector('.fl-dbg-bad-line')),
    title: box(region.querySelector('.fl-dbg-lanes-title')),
    caption: box(region.querySelector('.fl-dbg-lanes-caption')),
    bars: [...lanes.querySelectorAll('svg > text')].map((t) => t.textContent),
  };
}"""
ATTEMPTS = {"clean#1/1", "clean#2/1", "clean#3/1", "count#1/1", "count#3/1"}


def _screenshot(locator, name: str) -> None:
    """In the lab only the lanes: an element taller than the notebook's view shows the page
    around the lab's frame in its screenshot."""
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(out / name))


def _inside(inner, outer, slack: float = 1.0) -> bool:
    return inner[0] >= outer[0] - slack and inner[1] <= outer[1] + slack


def _assert_opens_readable(region, frame, width: int) -> None:
    """Issue 32: every bar names its attempt; the chart opens on the broken invariant, its line and
    label whole in view right of the label column; the row names, the title and the caption are
    never cut, before and after a sideways scroll."""
    lanes = region.locator(".fl-dbg-lanes")
    got = lanes.evaluate("(el) => (" + LANES_BOXES_JS + ")(el.closest('[role=region]'))")
    assert ATTEMPTS <= set(got["bars"]), got["bars"]
    visible = [got["column"][1], got["lanes"][1]]
    assert _inside(got["bad"], visible) and _inside(got["badLine"], visible), got
    for part in ("title", "caption"):
        assert _inside(got[part], got["lanes"]), (part, got)
    assert got["scrolls"] or width > 390  # a phone always scrolls the 1059 px chart
    for name, *box in got["labels"]:
        assert _inside(box, [got["lanes"][0], got["column"][1]]), (name, box, got["column"])
    if got["scrolls"]:
        lanes.evaluate("(el) => { el.scrollLeft = 0; }")
        frame.wait_for_function(
            "() => (document.querySelector('.fl-dbg-pin').getAttribute('transform') || '') === 'translate(0.0,0)'"
        )
        lanes.evaluate("(el) => { el.scrollLeft = 180; }")
        frame.wait_for_function(
            "() => document.querySelector('.fl-dbg-pin').getAttribute('transform') === 'translate(180.0,0)'"
        )
        moved = lanes.evaluate("(el) => (" + LANES_BOXES_JS + ")(el.closest('[role=region]'))")
        for name, *box in moved["labels"]:
            assert _inside(box, [moved["lanes"][0], moved["column"][1]]), (name, box)


CONTRAST_JS = """(region) => {
  const rgb = (c) => c.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  let el = region, bg = 'rgba(0, 0, 0, 0)';
  while (el && (bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) { bg = getComputedStyle(el).backgroundColor; el = el.parentElement; }
  const bar = region.querySelector('.fl-dbg-ghost-bar');
  const [a, b] = [lum(getComputedStyle(bar).stroke), lum(bg)].sort((x, y) => y - x);
  const differ = region.querySelector('.fl-dbg-differ text').getBoundingClientRect();
  const line = region.querySelector('.fl-dbg-bad-line').getBoundingClientRect();
  return {
    ratio: (a + 0.05) / (b + 0.05),
    shown: [...region.querySelectorAll('.fl-dbg-ghost')].every((g) => g.getAttribute('visibility') === 'visible'),
    key: !!region.querySelector('.fl-dbg-compare-row .fl-dbg-ghost-key'),
    crossed: line.left + line.width / 2 > differ.left && line.left + line.width / 2 < differ.right
             && line.bottom > differ.top && line.top < differ.bottom,
  };
}"""


def _assert_compare_readable(region, frame) -> None:
    """The passing run's outlines show, keyed, at 3:1 or more on the page (AA for graphics), and
    "runs differ here" is not under the broken invariant's line."""
    got = region.evaluate(CONTRAST_JS)
    assert got["shown"] and got["key"], got
    assert got["ratio"] >= 3.0, got
    assert not got["crossed"], got


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
    region = frame_locator.get_by_role("region", name="Debugger")
    region.get_by_role("button", name=REMOVE).wait_for(timeout=BOOT_TIMEOUT_MS)
    _screenshot(region.locator(".fl-dbg-lanes"), f"debugger-lanes-{width}px-{scheme}.png")  # as opened
    _assert_opens_readable(region, frame, width)
    _step_and_remove(frame_locator, page)

    region.scroll_into_view_if_needed()
    _assert_compare_readable(region, frame)
    _screenshot(region.locator(".fl-dbg-lanes"), f"debugger-lanes-compare-{width}px-{scheme}.png")
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


@pytest.fixture(scope="module")
def fault00_page(tmp_path_factory):
    """The offline page of fault00's starter's failing run (`replay --html`), made once."""
    token, _ = _starter("fault00")
    target = tmp_path_factory.mktemp("debugger") / "fault00.html"
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "replay", token, str(REPO / "exercises/fault00/starter.py"),
         "--html", str(target)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 1 and target.is_file(), result.stderr
    return target


@pytest.mark.parametrize(
    ("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light"), (390, "dark")]
)
def test_the_debugger_reads_and_axe_finds_nothing_serious_at_both_widths_in_both_schemes(
    new_context, fault00_page, width, scheme
):
    """Issue 32 on the same debugger with no lab around it: the names, the pinned column, the
    opening on the broken invariant and Compare's outlines, then axe-core with Compare ticked."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: run `make node-deps`")
    context, traffic = new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, offline=True
    )
    page = context.new_page()
    page.goto(fault00_page.as_uri())
    region = page.get_by_role("region", name="Debugger")
    region.locator(".fl-dbg-pin").wait_for(state="attached")
    page.wait_for_function("() => !!document.querySelector('.fl-dbg-slider')")
    _screenshot(region, f"debugger-offline-opened-{width}px-{scheme}.png")
    _assert_opens_readable(region, page, width)
    region.get_by_role("checkbox", name="Compare with a passing run").check()
    _assert_compare_readable(region, page)
    _screenshot(region, f"debugger-offline-{width}px-{scheme}.png")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_ON_DEBUGGER_JS, WCAG_TAGS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert traffic.errors == []
