"""A lab whose kernel cannot start says so and recovers, in real Chromium.

The server cuts the connection halfway through pyodide.asm.wasm, once, as a flaky network
does. The lesson page must say in one sentence that a file did not download and offer Retry;
Retry must start the lab without reloading the page, and the learner's saved edits must be
there afterwards.
"""

from __future__ import annotations

import threading

import pytest
from site_browser import (
    panel_data,
    run_all_cells,
    type_in_first_cell,
    wait_for_lab,
    wait_for_output,
    wait_for_saved_copy,
)

from hooks.site_build import serve as site_server

pytestmark = pytest.mark.browser

DROPPED = "pyodide.asm.wasm"
EDIT_MARKER = "# kept through a failed start 5521"
FAILED_DOWNLOAD = "The lab could not start because one of its files did not download; check your connection and press Retry."


class DropOnceHandler(site_server.SiteHandler):
    """Sends the first kernel request for DROPPED half-way, then cuts the connection."""

    dropped: list[str] = []
    lock = threading.Lock()

    def copyfile(self, source, outputfile):
        name = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
        with self.lock:
            drop = name == DROPPED and not self.dropped
            if drop:
                self.dropped.append(self.path)
        if not drop:
            super().copyfile(source, outputfile)
            return
        data = source.read()
        outputfile.write(data[: len(data) // 2])
        outputfile.flush()
        self.close_connection = True
        self.connection.shutdown(2)  # the browser sees the connection reset mid-body


@pytest.fixture
def flaky_url(site_dir):
    DropOnceHandler.dropped = []
    server, url = site_server.serve(site_dir, handler=DropOnceHandler)
    yield url
    server.shutdown()
    server.server_close()


def test_a_dropped_boot_file_is_told_and_retry_starts_the_lab_keeping_edits(new_context, flaky_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    # No prefetch: the page must meet the drop itself, as a learner who clicks at once does.
    context.route(
        "**/lite/prefetch.json", lambda route: route.fulfill(body="[]", content_type="application/json")
    )
    page = context.new_page()
    page.goto(flaky_url + "lessons/01_mini_runtime/")
    data = panel_data(page)
    page.get_by_role("button", name="Start the lab").click()

    failed = page.locator(".fl-lab__failed")
    failed.wait_for(state="visible", timeout=120_000)
    assert DropOnceHandler.dropped, "the server never dropped the file"
    assert failed.locator(".fl-lab__failed-text").inner_text() == FAILED_DOWNLOAD

    # The notebook itself still opened: the learner's edit is saved (autosave), kernel or not.
    frame_locator = page.frame_locator("iframe.fl-lab__iframe")
    type_in_first_cell(page, frame_locator, EDIT_MARKER)
    wait_for_saved_copy(page, data["storage"], data["notebook"], EDIT_MARKER)

    # Retry: a new lab in the same page (no reload), with the edit, and a kernel that runs.
    navigations = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))
    page.get_by_role("button", name="Retry", exact=True).click()  # a figure's alt text may say "retry"
    assert failed.is_hidden()
    frame_locator, frame = wait_for_lab(page)
    frame_locator.locator(".jp-CodeCell", has_text=EDIT_MARKER).wait_for(timeout=30_000)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    assert navigations == [], "Retry reloaded the page"
    assert failed.is_hidden()
    assert not [u for u in traffic.off_site()], "requests left 127.0.0.1"


def test_on_a_dark_phone_a_failed_start_is_told_on_the_page_and_retry_starts_the_lab(new_context, flaky_url):
    """Issue 24: the start's feedback leaves a failure its own message and Retry. On a phone the
    full-screen lab gives way to the page, where the notice is, and Retry brings the lab back."""
    context, traffic = new_context(
        viewport={"width": 390, "height": 844},
        color_scheme="dark",
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    context.route(
        "**/lite/prefetch.json", lambda route: route.fulfill(body="[]", content_type="application/json")
    )
    page = context.new_page()
    page.goto(flaky_url + "lessons/01_mini_runtime/")
    page.get_by_role("button", name="Start the lab").click()
    assert page.locator(".fl-lab__phase").inner_text()  # the start speaks from the click

    failed = page.locator(".fl-lab__failed")
    failed.wait_for(state="visible", timeout=120_000)
    assert DropOnceHandler.dropped, "the server never dropped the file"
    assert failed.locator(".fl-lab__failed-text").inner_text() == FAILED_DOWNLOAD
    assert page.evaluate("document.activeElement.textContent") == "Retry"
    box = failed.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and 0 <= box["y"] < 844, box
    assert page.locator(".fl-lab__cover").is_hidden()

    page.get_by_role("button", name="Retry", exact=True).click()  # a figure's alt text may say "retry"
    assert failed.is_hidden()
    frame_locator, frame = wait_for_lab(page)
    assert page.locator("iframe.fl-lab__iframe").bounding_box()["width"] == 390
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    page.locator(".fl-lab__phase", has_text="Python is ready").wait_for(timeout=60_000)
    assert not traffic.off_site()
