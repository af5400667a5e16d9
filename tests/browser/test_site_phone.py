"""A phone (390 px, touch) as a first-class reader, in real Chromium: the lab opens full screen
with nothing clipped or scrolling sideways, "Back to the page" puts it away and a finger then
scrolls the page past it; the Playground's notebook gets the screen's width too.

Screenshots go to build/screenshots/ for a person to look at.
"""

from __future__ import annotations

import json
import re

import pytest
from site_browser import BOOT_TIMEOUT_MS, REPO, run_all_cells, start_lab, wait_for_output, without_warm_up

pytestmark = pytest.mark.browser

READABLE_PX, ENLARGED_PX = 11, 12  # docs/javascripts/figures.js

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}

# Every element of the notebook that could push the page sideways: CodeMirror's scrollers
# (a long line that does not wrap), outputs, the toolbar and the menu bar.
OVERFLOWING_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll(
      '.cm-scroller, .jp-OutputArea-output, .jp-NotebookPanel-toolbar, .jp-Toolbar, #menu-panel, .lm-MenuBar')) {
    if (el.offsetParent && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${el.className.split(' ')[0]}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return out;
}"""


# How far JupyterLab's menu bar (File ... Help) runs past its own width, in px.
MENU_BAR_OVERFLOW_JS = """() => {
  const bar = document.querySelector('#jp-MainMenu');
  return Math.max(0, bar.scrollWidth - bar.clientWidth);
}"""


def _screenshot(page, name: str) -> None:
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / name))


def _swipe_up(context, page, distance: int) -> None:
    """A finger's swipe up from low on the screen, as raw touch events."""
    cdp = context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": 195, "y": 780}]})
    for y in range(770, 780 - distance, -20):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": 195, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


TEXT_LANES_JS = """(pre) => {
  const s = getComputedStyle(pre);
  return { whiteSpace: s.whiteSpace, overflowX: s.overflowX, height: pre.clientHeight,
           lines: pre.textContent.replace(/\\n$/, '').split('\\n').length,
           lineHeight: parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize) };
}"""


def test_lesson_lab_on_a_phone_is_full_screen_unclipped_and_the_page_scrolls_past_it(new_context, base_url):
    context, traffic = new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "lessons/01_mini_runtime/")
    frame_locator, frame = start_lab(page)

    # The lab has the screen: its iframe is the viewport's width, under the "back" bar.
    box = page.locator("iframe.fl-lab__iframe").bounding_box()
    assert box["x"] == 0 and box["width"] == 390, box
    assert box["y"] < 80 and box["y"] + box["height"] >= 843, box

    run_all_cells(frame)
    wait_for_output(frame_locator, "[0, 2, 4, 6]")
    # A long line wraps instead of scrolling sideways; nothing in the notebook is clipped.
    frame.wait_for_function("() => document.querySelectorAll('.cm-lineWrapping').length > 0", timeout=30_000)
    assert frame.evaluate(OVERFLOWING_JS) == []
    # No "Not Trusted" badge: it means nothing to a learner here.
    assert frame_locator.locator(".jp-NotebookTrustedStatus").count() == 0
    assert frame.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _screenshot(page, "lesson-lab-390px.png")
    # Issue 32: a text timeline keeps each lane on one line and scrolls sideways as one block.
    lanes_text = frame_locator.locator(".jp-OutputArea-output pre.fl-text-lanes").first
    lanes_text.wait_for(state="attached", timeout=60_000)
    lanes_text.scroll_into_view_if_needed()
    got = lanes_text.evaluate(TEXT_LANES_JS)
    # Every text timeline the notebook shows is kept whole, not only the first one marked.
    unmarked = frame.evaluate(
        """() => [...document.querySelectorAll('.jp-RenderedText pre')].filter((pre) =>
             /^t \\(s\\) +0/m.test(pre.textContent) && !pre.classList.contains('fl-text-lanes')).length"""
    )
    assert unmarked == 0
    assert got["whiteSpace"] == "pre" and got["overflowX"] == "auto", got
    assert got["height"] <= got["lines"] * got["lineHeight"] + 20, got  # + a scroll bar
    out = REPO / "build/screenshots"
    lanes_text.screenshot(path=str(out / "lesson-text-lanes-390px.png"))

    # Back to the page: the lab is put away (still running), and a swipe scrolls the page.
    page.get_by_role("button", name="Back to the page").click()
    assert page.locator("iframe.fl-lab__iframe").is_hidden()
    before = page.evaluate("window.scrollY")
    _swipe_up(context, page, 400)
    page.wait_for_function(f"() => window.scrollY > {before}", timeout=10_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _screenshot(page, "lesson-page-390px.png")

    # The start button brings the same lab back (same kernel: the outputs are still there).
    page.get_by_role("button", name="Return to the lab").click()
    assert page.locator("iframe.fl-lab__iframe").bounding_box()["width"] == 390
    assert frame_locator.locator(".jp-OutputArea-output", has_text="[0, 2, 4, 6]").count() >= 1
    traffic.assert_clean()


def test_playground_on_a_phone_gives_the_notebook_the_screen(new_context, base_url):
    context, traffic = new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "playground/")
    # On a phone the lab opens with its file browser closed (start_playground waits for it).
    page.get_by_role("button", name="Start the playground").click()
    frame_locator = page.frame_locator("iframe.fl-lab__iframe")
    frame_locator.locator(".jp-LabShell").wait_for(timeout=BOOT_TIMEOUT_MS)
    frame = page.frame(url=lambda url: "/lite/lab/" in url)
    frame.wait_for_function("() => window.jupyterapp", timeout=BOOT_TIMEOUT_MS)
    frame.evaluate("() => window.jupyterapp.restored")
    frame.wait_for_function("() => window.jupyterapp.shell.leftCollapsed", timeout=30_000)
    box = page.locator("iframe.fl-lab__iframe").bounding_box()
    assert box["x"] == 0 and box["width"] == 390, box
    # The menu bar is not clipped: its last menu, Help, is on the screen and opens.
    assert frame.evaluate(MENU_BAR_OVERFLOW_JS) == 0
    help_menu = frame_locator.locator("#jp-MainMenu .lm-MenuBar-item", has_text="Help")
    item = help_menu.bounding_box()
    assert item is not None and item["x"] >= 0 and item["x"] + item["width"] <= 390, item
    help_menu.click()
    frame_locator.locator(".lm-Menu:visible").first.wait_for(timeout=10_000)
    page.keyboard.press("Escape")

    frame.evaluate(
        "() => { window.jupyterapp.commands.execute('docmanager:open', {path: 'lessons/01_mini_runtime.ipynb'}); }"
    )
    notebook = frame_locator.locator(".jp-NotebookPanel .jp-Cell").first
    notebook.wait_for(timeout=BOOT_TIMEOUT_MS)
    width = frame.evaluate("document.querySelector('.jp-NotebookPanel').getBoundingClientRect().width")
    # All but JupyterLab's two narrow side tab bars.
    assert width >= 0.8 * 390, f"the notebook gets {width} px of a 390 px screen"
    run_all_cells(frame)
    wait_for_output(frame_locator, "[0, 2, 4, 6]")
    _screenshot(page, "playground-390px.png")
    traffic.assert_clean()


LESSONS = sorted(p.stem for p in (REPO / "docs/lessons").glob("[0-9][0-9]_*.md"))


def _smallest_font(svg_text: str) -> tuple[float, float]:
    """The SVG's smallest font size and its viewBox width, both in the SVG's own units."""
    sizes = [float(size) for size in re.findall(r"font-size: ?([0-9.]+)px", svg_text)]
    width = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ', svg_text).group(1))
    return min(sizes), width


def _shown_px(img, site_dir) -> tuple[str, float]:
    """The figure's file and its smallest text in CSS px as this <img> shows it now."""
    src = img.get_attribute("src").split("#")[0]
    svg = site_dir / "figures" / src.rsplit("/", 1)[-1]
    size, width = _smallest_font(svg.read_text())
    return svg.name, size * img.evaluate("(i) => i.getBoundingClientRect().width") / width


def test_every_figure_on_a_phone_shows_its_text_at_8px_directly_or_once_tapped(
    new_context, base_url, site_dir
):
    """Issues 12 and 32: at 390 px every figure's smallest text is 11 px or more on screen in the
    page's column or, where the column shrinks it below that (about 9 px), the figure shows an
    "Enlarge the figure" button and a tap opens a dialog with its smallest text at 12 px or
    more. Measured from each SVG's own font sizes and the width Chromium lays the image out at."""
    context, traffic = new_context(color_scheme="light", **PHONE)
    without_warm_up(context)  # every lesson in turn
    page = context.new_page()
    measured: dict[str, tuple[float, float | None]] = {}
    for lesson in LESSONS:
        page.goto(base_url + f"lessons/{lesson}/")
        for img in page.locator(".fl-figure img").all():
            if not img.is_visible():  # the dark scheme's copy
                continue
            img.scroll_into_view_if_needed()
            name, direct = _shown_px(img, site_dir)
            tapped = None
            button = img.locator("xpath=ancestor::*[contains(@class,'fl-figure')][1]").locator(
                ".fl-figure__enlarge"
            )
            assert button.is_visible() == (direct < READABLE_PX), (name, direct)
            if direct < READABLE_PX:
                assert "fl-figure--enlargeable" in (img.get_attribute("class") or ""), name
                img.tap()
                large = page.locator("dialog.fl-figure-dialog img")
                large.wait_for()
                tapped = _shown_px(large, site_dir)[1]
                page.get_by_role("button", name="Close").click()
            measured[name] = (round(direct, 2), None if tapped is None else round(tapped, 2))
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    (out / "figure-text-390px.json").write_text(json.dumps(measured, indent=1))
    assert len(measured) >= len(LESSONS)
    short = {
        name: px
        for name, px in measured.items()
        if px[0] < READABLE_PX and (px[1] is None or px[1] < ENLARGED_PX - 0.05)
    }
    assert not short, short
    traffic.assert_clean()


def test_a_figure_on_a_small_phone_in_dark_mode_is_the_dark_drawing_and_opens_enlarged(new_context, base_url):
    """The reader in the dark scheme sees the figure drawn for it, unfiltered (no inverted
    light drawing), in the page and in the tap-to-enlarge dialog. At 320 px (a small phone) the
    column shrinks the figures' text under 8 px, so a tap opens them at their drawn size."""
    context, traffic = new_context(
        color_scheme="dark", **{**PHONE, "viewport": {"width": 320, "height": 640}}
    )
    page = context.new_page()
    page.goto(base_url + "lessons/06_checkpoint_interval/")
    first = page.locator(".fl-figure").first
    light, dark = first.locator("img").nth(0), first.locator("img").nth(1)
    assert not light.is_visible() and dark.is_visible()
    assert dark.get_attribute("src").endswith("-dark.svg#only-dark")
    dark.scroll_into_view_if_needed()
    assert dark.evaluate("(img) => getComputedStyle(img).filter") == "none"
    _screenshot(page, "figure-320px-dark.png")
    dark.tap()
    large = page.locator("dialog.fl-figure-dialog img")
    large.wait_for()
    assert large.get_attribute("src").endswith("-dark.svg#only-dark")
    assert large.evaluate("(img) => getComputedStyle(img).filter") == "none"
    _screenshot(page, "figure-enlarged-320px-dark.png")
    page.get_by_role("button", name="Close").click()
    # The dialog leaves the page on its "close" event, which the browser fires a task later.
    page.locator("dialog.fl-figure-dialog").wait_for(state="detached", timeout=5_000)
    traffic.assert_clean()


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_a_title_that_fits_its_line_takes_one_line(new_context, base_url, width, scheme):
    """Issue 32: fault05's title just fits its line at 1280 px, and the hidden ¶ of its permalink
    wrapped alone onto a second line that looked empty. A page's title has no ¶ now: the title's
    last word ends its last line."""
    phone = PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}
    context, traffic = new_context(color_scheme=scheme, **phone)
    page = context.new_page()
    page.goto(base_url + "exercises/fault05/")
    title = page.locator("article h1").first
    # The title's box ends with its words' last line (its words: the text outside the ¶).
    gap = title.evaluate(
        """(h) => {
          const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
          let bottom = -Infinity;
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest('.headerlink') || !node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of range.getClientRects()) bottom = Math.max(bottom, r.bottom);
          }
          return h.getBoundingClientRect().bottom - bottom;
        }"""
    )
    assert gap < 12, gap  # a line of its own would be a whole line height (about 40 px)
    traffic.assert_clean()
