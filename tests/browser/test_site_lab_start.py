"""Issue 24, start feedback, in real Chromium: from the click on "Start the lab" the panel says
what the lab is doing, in words and with a progress bar (Loading the lab, Downloading Python: x of
y MB, Starting Python, then the kernel's status), a dark page never shows a light frame, the
warm-up that runs while the learner reads says so quietly ("Python is ready"), the lab it
prepares is ready on the click, and on a phone the kernel's status stays in view.

Each test boots a kernel, cold (the learner clicks at once) or from this browser's snapshot (the
learner read first), at 1280 and 390 px, in light and dark. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

import pytest
from lab_watch import PHASE_JS, WATCH_PANEL_JS, bright_frames, downloads
from site_browser import (
    BOOT_TIMEOUT_MS,
    REPO,
    execute_in_kernel,
    run_all_cells,
    screen,
    wait_for_lab,
    wait_for_output,
    without_warm_up,
)

pytestmark = pytest.mark.browser

LESSON = "lessons/01_mini_runtime/"
FIRST_WORDS_MS = 200  # the bound, from the click to words on the panel


def _screenshot(page, name: str) -> None:
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / name))


def _click_and_time_the_first_words(page) -> float:
    page.evaluate(WATCH_PANEL_JS)
    page.get_by_role("button", name="Start the lab").click()
    page.wait_for_function("() => window.__flLog.firstWords !== null", timeout=10_000)
    log = page.evaluate("window.__flLog")
    return log["firstWords"] - log["clicked"]


def _wait_for_phase(page, words: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    page.wait_for_function(f"() => ({PHASE_JS})() === {words!r}", timeout=timeout_ms, polling=100)


def _assert_no_light_frame(page, scheme: str, covered_first: bool = True) -> None:
    """No painted frame after the click was light on a dark page. covered_first: the frame was
    still loading at the click, so the cover showed before the notebook did."""
    log = page.evaluate("() => { window.__flLog.stop = true; return window.__flLog; }")
    shown = [s for s in log["samples"] if s["shown"]]
    covered = [s for s in log["samples"] if s["covered"]]
    assert shown, "the notebook was never watched on screen"
    assert bool(covered) == covered_first, f"{len(covered)} painted frames showed the cover"
    if scheme == "dark":
        bright = bright_frames(log["samples"])
        assert not bright, f"{len(bright)} of {len(log['samples'])} painted frames were light: {bright[:3]}"


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_a_cold_start_says_what_it_does_from_the_click_to_python_is_ready(
    new_context, base_url, width, scheme
):
    context, traffic = new_context(**screen(width, scheme))
    without_warm_up(context)  # a learner who clicks at once: Python downloads and starts now
    page = context.new_page()
    page.goto(base_url + LESSON)

    assert _click_and_time_the_first_words(page) <= FIRST_WORDS_MS
    # Words and a bar on the panel's bar, and the same, large, over the frame while it loads.
    for selector in (
        ".fl-lab__bar .fl-lab__phase",
        ".fl-lab__meter",
        ".fl-lab__cover-text",
        ".fl-lab__cover-meter",
    ):
        assert page.locator(selector).is_visible(), selector
    _screenshot(page, f"lab-start-{width}px-{scheme}.png")

    _wait_for_phase(page, "Python is ready")
    _screenshot(page, f"lab-ready-{width}px-{scheme}.png")
    phases = page.evaluate("window.__flLog.phases")
    assert phases[0] == "Loading the lab", phases
    got = downloads(phases)
    assert got, f"no download was told: {phases}"
    assert all(loaded <= total for loaded, total in got) and len({total for _, total in got}) == 1, got
    assert [loaded for loaded, _ in got] == sorted(loaded for loaded, _ in got), got
    assert got[-1][1] > 1.0, "the total is the boot's megabytes"
    first_download = next(i for i, p in enumerate(phases) if p.startswith("Downloading Python: "))
    assert first_download < phases.index("Starting Python") < phases.index("Python is ready"), phases
    # The notebook is restored after Python starts, never before its download.
    assert all(
        i > phases.index("Starting Python") for i, p in enumerate(phases) if p == "Restoring your notebook"
    )
    _assert_no_light_frame(page, scheme)

    # The kernel's status stays on the bar (on a phone, JupyterLab puts its own in a menu).
    bar = page.locator(".fl-lab__bar")
    box = bar.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] < 200, box
    # Busy while it runs code, ready after: read from the words' log (every text the bar
    # showed), so that however short the run, its "running" is not missed between two looks.
    frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
    shown = len(page.evaluate("window.__flLog.phases"))
    execute_in_kernel(frame, "sum(range(1000))")
    _wait_for_phase(page, "Python is ready", timeout_ms=60_000)
    after = page.evaluate("window.__flLog.phases")[shown:]
    assert "Python is running your code" in after, after
    assert after[-1] == "Python is ready", after
    traffic.assert_clean()


@pytest.mark.parametrize(("width", "scheme"), [(1280, "dark"), (390, "light")])
def test_reading_prepares_the_lab_quietly_and_the_click_shows_it_ready(new_context, base_url, width, scheme):
    context, traffic = new_context(**screen(width, scheme))
    page = context.new_page()
    page.goto(base_url + LESSON)
    scrolled = page.evaluate("window.scrollY")

    # The warm-up's state, quietly: a small line under the buttons, no bar, no cover.
    warm = page.locator(".fl-lab__warm")
    warm.filter(has_text="Preparing Python in the background").wait_for(timeout=BOOT_TIMEOUT_MS)
    warm.filter(has_text="Python is ready").wait_for(timeout=BOOT_TIMEOUT_MS)
    quiet, body = page.evaluate(
        "() => [getComputedStyle(document.querySelector('.fl-lab__warm')).fontSize,"
        " getComputedStyle(document.querySelector('article.md-typeset')).fontSize]"
    )
    assert float(quiet.removesuffix("px")) < float(body.removesuffix("px"))
    assert page.locator(".fl-lab__bar").is_hidden() and page.locator(".fl-lab__cover").is_hidden()

    # Meanwhile the lab itself starts, unseen: its notebook opens and its kernel runs, and the
    # page the learner reads neither moves nor loses focus.
    page.wait_for_function(
        "() => { const f = document.querySelector('.fl-lab--preloaded iframe.fl-lab__iframe');"
        " try { return f.contentWindow.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'; }"
        " catch (e) { return false; } }",
        timeout=BOOT_TIMEOUT_MS,
        polling=500,
    )
    assert page.evaluate("document.querySelector('.fl-lab__stage').inert")
    assert page.locator("iframe.fl-lab__iframe").evaluate("(f) => getComputedStyle(f).visibility") == "hidden"
    assert page.evaluate("window.scrollY") == scrolled
    assert page.evaluate("document.activeElement === document.body")
    _screenshot(page, f"lab-warm-up-{width}px-{scheme}.png")

    assert _click_and_time_the_first_words(page) <= FIRST_WORDS_MS
    _wait_for_phase(page, "Python is ready", timeout_ms=60_000)
    assert warm.is_hidden(), "once started, the bar speaks"
    _assert_no_light_frame(page, scheme, covered_first=False)  # the notebook was ready: shown at once
    frame_locator, frame = wait_for_lab(page)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    assert execute_in_kernel(frame, "1")[0]["content"]["data"]["text/plain"] == "1"
    traffic.assert_clean()
