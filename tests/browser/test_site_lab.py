"""The lab in a lesson page, in real Chromium: boots offline, runs miniray, keeps the learner's
edits without a save, flags a stale saved copy, drives a widget, fits a phone and follows the dark scheme.

Each test boots the kernel once (plus one background boot after a reload); the kernel is the
slow part, so every check that can share a boot does.
"""

from __future__ import annotations

import pytest
from site_browser import (
    AGE_SAVED_COPY_JS,
    READ_SAVED_COPY_JS,
    REPO,
    panel_data,
    run_all_cells,
    start_lab,
    type_in_first_cell,
    wait_for_output,
    wait_for_output_at_end,
    wait_for_saved_copy,
)

pytestmark = pytest.mark.browser

EDIT_MARKER = "# learner edit 7319"


def test_lesson_lab_runs_miniray_keeps_edits_and_flags_stale_copy(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    lesson = base_url + "lessons/01_mini_runtime/"
    page.goto(lesson)
    assert page.locator("iframe").count() == 0, "the lab must not boot before it is asked to"
    page.locator('.fl-lab[data-saved-copy="none"]').wait_for()  # the page has looked for a copy
    assert page.locator(".fl-lab__notice").is_hidden()
    data = panel_data(page)

    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"

    # The learner edits the first code cell, presses no save, and reloads once the lab has saved
    # it on its own (a second after the change: playground/lab_page.js).
    type_in_first_cell(page, frame_locator, EDIT_MARKER)
    wait_for_saved_copy(page, data["storage"], data["notebook"], EDIT_MARKER)

    # The edit survives the reload, and an up-to-date copy raises no notice.
    page.reload()
    page.locator('.fl-lab[data-saved-copy="current"]').wait_for()
    assert page.locator(".fl-lab__notice").is_hidden()
    frame_locator, _ = start_lab(page)
    frame_locator.locator(".jp-CodeCell", has_text=EDIT_MARKER).wait_for(timeout=30_000)

    # A copy saved from an older shipped notebook: the page says so and offers the new version.
    page.goto(lesson)
    page.evaluate(AGE_SAVED_COPY_JS, [data["storage"], data["notebook"]])
    page.reload()
    notice = page.locator(".fl-lab__notice")
    page.locator('.fl-lab[data-saved-copy="stale"]').wait_for()
    assert notice.is_visible()
    assert "changed since you saved your copy" in notice.inner_text()
    page.get_by_role("button", name="Reset to the new version").click()
    notice.wait_for(state="hidden", timeout=10_000)
    assert page.evaluate(READ_SAVED_COPY_JS, [data["storage"], data["notebook"]]) is None
    frame_locator, _ = start_lab(page)
    frame_locator.locator(".jp-CodeCell", has_text="ray.init").first.wait_for(timeout=30_000)
    assert frame_locator.locator(".jp-CodeCell", has_text=EDIT_MARKER).count() == 0

    traffic.assert_clean()


def test_widget_slider_drives_python_on_a_phone_in_dark_mode(new_context, base_url):
    context, traffic = new_context(
        viewport={"width": 390, "height": 844}, color_scheme="dark", device_scale_factor=2, has_touch=True
    )
    page = context.new_page()
    page.goto(base_url + "lessons/06_checkpoint_interval/")
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"

    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    wait_for_output_at_end(frame, frame_locator, "interval 1.00 h: expected overhead")

    handle = frame_locator.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")
    handle.press("ArrowRight")
    wait_for_output(frame_locator, "interval 1.10 h: expected overhead")

    # Follows the page's dark scheme, and fits the phone: nothing wider than the screen.
    frame.wait_for_function("() => document.body.dataset.jpThemeName === 'JupyterLab Dark'", timeout=30_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("iframe.fl-lab__iframe").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert frame.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(_screenshot_dir() / "widgets-390px-dark.png"))

    traffic.assert_clean()


def _screenshot_dir():
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out
