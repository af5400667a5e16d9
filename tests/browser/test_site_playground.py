"""The Playground page, in real Chromium: the full JupyterLab boots offline, its file browser
lists every lesson notebook the site ships, and a lesson opened there runs miniray.

The page promises exercises too; exercises/ has none yet, so only lessons are checked.
"""

from __future__ import annotations

import pytest
from site_browser import BOOT_TIMEOUT_MS, run_all_cells, start_playground, wait_for_output

pytestmark = pytest.mark.browser

LESSON = "01_mini_runtime.ipynb"  # its cells print this from remote tasks
LESSON_OUTPUT = "[0, 2, 4, 6]"


def test_playground_lists_every_lesson_and_runs_one_with_miniray(new_context, base_url, site_dir):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "playground/")
    assert page.locator("iframe").count() == 0, "the playground must not boot before it is asked to"
    shipped = sorted(p.name for p in (site_dir / "lite/files/lessons").glob("*.ipynb"))
    assert LESSON in shipped

    frame_locator, frame = start_playground(page)
    # The lab has the page's width: no empty navigation or table-of-contents column beside it.
    box = page.locator("iframe.fl-lab__iframe").bounding_box()
    assert box["width"] >= 1100, f"the playground gets {box['width']} px of a 1280 px window"

    # The learner opens the lessons folder: every shipped notebook is there, nothing else.
    browser_items = frame_locator.locator(".jp-FileBrowser .jp-DirListing-item")
    browser_items.filter(has_text="lessons").first.dblclick()
    for name in shipped:
        browser_items.filter(has_text=name).first.wait_for(timeout=30_000)
    listed = browser_items.locator(".jp-DirListing-itemText").all_inner_texts()
    assert sorted(listed) == shipped

    # Opens a lesson and runs it: miniray runs the remote tasks in the browser's kernel.
    browser_items.filter(has_text=LESSON).first.dblclick()
    frame_locator.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, LESSON_OUTPUT).strip() == LESSON_OUTPUT

    traffic.assert_clean()


def test_the_full_screen_lab_follows_the_readers_scheme(new_context, base_url):
    # A reader whose system is dark: "Open it full screen" opens a dark JupyterLab.
    context, traffic = new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    missing = []
    page.on("response", lambda response: response.status == 404 and missing.append(response.url))
    page.goto(base_url + "playground/")
    page.get_by_role("link", name="Open it full screen").click()
    page.wait_for_function(
        "() => document.body?.dataset.jpThemeName === 'JupyterLab Dark'", timeout=BOOT_TIMEOUT_MS
    )
    # A reader who chose light with the site's toggle, on that dark system: a light JupyterLab.
    page.goto(base_url + "playground/")
    page.locator("label[title='Switch to light mode']:visible").click()
    assert page.evaluate("document.body.dataset.mdColorScheme") == "default"
    page.get_by_role("link", name="Open it full screen").click()
    page.wait_for_function(
        "() => document.body?.dataset.jpThemeName === 'JupyterLab Light'", timeout=BOOT_TIMEOUT_MS
    )
    # A top-level JupyterLab page names no icon, so Chromium asks for /favicon.ico: the only 404.
    assert {url.rsplit("/", 1)[-1] for url in missing} <= {"favicon.ico"}
    assert traffic.off_site() == []
    assert [e for e in traffic.errors if "status of 404" not in e] == []
