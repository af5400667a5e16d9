"""Issue 24, progress that is a backup, in real Chromium: the exported file (progress-file version
2, docs/design/progress-file.md) holds each exercise's status and last failure's signature and
each notebook as the learner left it; Import is a real button, lists what it will restore and
asks before replacing newer work; version 1 files still import; "Reset to the original" asks
first and keeps a copy that "Restore my copy" brings back.

Only the first test boots a kernel (the signature must come from a real check()); the others
put notebooks in the lab's storage directly, as the lab's own saving does (test_site_lab.py
checks that saving).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from site_browser import (
    BOOT_TIMEOUT_MS,
    READ_SAVED_COPY_JS,
    REPO,
    run_all_cells,
    screen,
    start_lab,
    type_in_first_cell,
    wait_for_saved_copy,
    without_warm_up,
)

pytestmark = pytest.mark.browser

STORAGE = "fault-lines"
FORMAT_DOC = REPO / "docs/design/progress-file.md"
EXERCISE_PATH = "exercises/fault05.ipynb"
LESSON_PATH = "lessons/01_mini_runtime.ipynb"
COMBOS = [(1280, "light"), (390, "dark"), (1280, "dark"), (390, "light")]

PUT_COPY_JS = """async ([storage, path, marker, when]) => {
  const notebook = { nbformat: 4, nbformat_minor: 5, metadata: { fault_lines: { source_sha256: 'test' } },
                     cells: [{ cell_type: 'code', metadata: {}, source: marker, outputs: [], execution_count: null }] };
  await window.FaultLinesStore.putCopy(storage, path, notebook, when);
}"""
BACKUP_JS = "async (path) => await window.FaultLinesStore.backupOf(path)"
PROGRESS_JS = "() => JSON.parse(localStorage.getItem('fault-lines.progress.v1') || '{}')"


def _documented_fields() -> dict[str, set[str]]:
    """The field names each table of the format's page lists, by the heading above it."""
    fields: dict[str, set[str]] = {}
    heading = ""
    for line in FORMAT_DOC.read_text().splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif (found := re.match(r"^\| `(\w+)` \|", line)) and heading:
            fields.setdefault(heading, set()).add(found.group(1))
    return fields


def _saved_text(page, path: str) -> str:
    return json.dumps(page.evaluate(READ_SAVED_COPY_JS, [STORAGE, path]) or {})


def _export(page, tmp_path) -> dict:
    with page.expect_download(timeout=30_000) as info:
        page.get_by_role("button", name="Export progress").click()
    assert info.value.suggested_filename == "fault-lines-progress.json"
    target = tmp_path / "exported.json"
    info.value.save_as(target)
    return json.loads(target.read_text())


def _new_page(context):
    page = context.new_page()
    # Playwright starts catching file choosers when the first listener comes, and a chooser
    # opened meanwhile is missed (headless Chromium then shows nothing): listen from the start.
    page.on("filechooser", lambda chooser: None)
    return page


def _import(page, path) -> None:
    """Tab from Export to Import, press Enter, choose the file: as a keyboard user does."""
    page.get_by_role("button", name="Export progress").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Import progress"
    with page.expect_file_chooser(timeout=10_000) as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(str(path))


def _restore(page, path, listed: str, imported: str) -> None:
    """Import the file, check the list names `listed`, press Restore, wait for the page's word."""
    _import(page, path)
    dialog = page.locator("dialog.fl-import")
    dialog.wait_for()
    assert listed in dialog.inner_text()
    dialog.get_by_role("button", name="Restore").click()
    page.locator(".fl-progress-result", has_text=f"Imported the progress of {imported}").wait_for()
    assert dialog.count() == 0


def test_the_export_is_a_backup_with_notebooks_and_the_last_failure_and_imports_back(
    new_context, base_url, tmp_path
):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    without_warm_up(context)
    page = context.new_page()
    page.goto(base_url + "exercises/fault05/")
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    frame_locator.locator(".fl-report.fl-failed").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    # The check is recorded as its report appears (exercises.js), before the learner can leave.
    assert page.evaluate(PROGRESS_JS)["exercises"]["fault05"]["status"] == "tried"
    type_in_first_cell(page, frame_locator, "# my notes 6113")
    wait_for_saved_copy(page, STORAGE, EXERCISE_PATH, "my notes 6113")
    page.evaluate(PUT_COPY_JS, [STORAGE, LESSON_PATH, "# lesson notes 6114", None])

    page.goto(base_url + "exercises/")
    exported = _export(page, tmp_path)
    # The page says the click did something, and what the file holds (a phone saves silently).
    page.locator(".fl-progress-result", has_text="Exported fault-lines-progress.json").filter(
        has_text="the progress of 1 exercise and 2 notebooks"
    ).wait_for()
    fields = _documented_fields()
    assert set(exported) == fields["Version 2"]
    assert exported["format"] == "fault-lines-progress" and exported["version"] == 2
    entry = exported["exercises"]["fault05"]
    assert set(entry) == fields["An exercise entry"]
    assert entry["status"] == "tried" and entry["version"] == 1 and "def process_order" in entry["source"]
    failure = entry["last_failure"]
    assert set(failure) == fields["The last failure's signature (`last_failure`)"]
    assert failure["exercise"] == "fault05" and failure["version"] == 1
    assert failure["invariant"] == "charged-at-most-once"
    assert failure["schedule"] and all(isinstance(t, str) for t in failure["schedule"])
    assert failure["hint"] == "retry-repeats-the-charge"
    assert failure["token"].startswith("FL1.fault05.v1.") and failure["source"] == entry["source"]
    notebook = entry["notebook"]
    assert set(notebook) == fields["A notebook (`notebook`)"] and notebook["path"] == EXERCISE_PATH
    assert notebook["content"]["nbformat"] == 4 and "my notes 6113" in json.dumps(notebook["content"])
    lesson = exported["lessons"]["01_mini_runtime"]
    assert set(lesson) == fields["A lesson entry"] and lesson["status"] == "started"
    assert "lesson notes 6114" in json.dumps(lesson["notebook"]["content"])

    # The file restores all of it in a browser that has none of it.
    fresh, _ = new_context(viewport={"width": 1280, "height": 900})
    page = _new_page(fresh)
    page.goto(base_url + "exercises/")
    file = tmp_path / "exported.json"
    _restore(page, file, "fault05: tried, not passed (version 1)", "1 exercise and 2 notebooks")
    assert "my notes 6113" in _saved_text(page, EXERCISE_PATH)
    assert "lesson notes 6114" in _saved_text(page, LESSON_PATH)
    assert page.evaluate(PROGRESS_JS)["exercises"]["fault05"]["last_failure"] == failure
    assert page.locator('tr[data-exercise="fault05"] .fl-badge').inner_text() == "tried, not passed yet"
    traffic.assert_clean()


def _v2_file(tmp_path, when_older: str, when_newer: str) -> object:
    def notebook(path: str, marker: str, when: str) -> dict:
        content = {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "source": marker,
                    "outputs": [],
                    "execution_count": None,
                }
            ],
        }
        return {"path": path, "saved_at": when, "source_sha256": None, "content": content}

    data = {
        "format": "fault-lines-progress",
        "version": 2,
        "exported_at": "2026-12-01T12:00:00.000Z",
        "exercises": {
            "fault05": {
                "status": "passed",
                "version": 1,
                "code": "abc",
                "at": when_older,
                "source": "",
                "last_failure": None,
                "notebook": notebook(EXERCISE_PATH, "# from the file 7001", when_older),
            }
        },
        "lessons": {
            "01_mini_runtime": {
                "status": "started",
                "notebook": notebook(LESSON_PATH, "# from the file 7002", when_newer),
            }
        },
    }
    path = tmp_path / "progress-v2.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("width", "scheme"), COMBOS)
def test_import_is_a_keyboard_button_that_lists_and_asks_before_replacing_newer_work(
    new_context, base_url, tmp_path, width, scheme
):
    context, traffic = new_context(**screen(width, scheme))
    page = _new_page(context)
    page.goto(base_url + "exercises/")
    # This browser: an older copy of the exercise's notebook, a newer one of the lesson's.
    page.evaluate(PUT_COPY_JS, [STORAGE, EXERCISE_PATH, "# mine, older 7003", "2026-11-01T00:00:00.000Z"])
    page.evaluate(PUT_COPY_JS, [STORAGE, LESSON_PATH, "# mine, newer 7004", "2026-12-24T00:00:00.000Z"])
    _import(page, _v2_file(tmp_path, "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z"))

    dialog = page.locator("dialog.fl-import")
    dialog.wait_for()
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    text = dialog.inner_text()
    assert "fault05: passed (version 1)" in text
    # Restore and Cancel look like the site's buttons (Material's .md-button), not plain text.
    for name in ("Restore", "Cancel"):
        style = dialog.get_by_role("button", name=name).evaluate(
            "(b) => { const s = getComputedStyle(b); return [s.borderTopWidth, s.paddingLeft]; }"
        )
        assert style[0] != "0px" and float(style[1].rstrip("px")) >= 8, (name, style)
    older = dialog.locator("li", has_text="Notebook of fault05")
    newer = dialog.locator("li", has_text="Lesson notebook 01_mini_runtime")
    assert older.locator("input").is_checked() and "which is kept as its backup" in older.inner_text()
    assert not newer.locator("input").is_checked()
    assert "This browser's copy is newer" in newer.inner_text()
    dialog.get_by_role("button", name="Restore").click()
    page.locator(
        ".fl-progress-result", has_text="Imported the progress of 1 exercise and 1 notebook"
    ).wait_for()
    assert dialog.count() == 0

    assert "from the file 7001" in _saved_text(page, EXERCISE_PATH)
    assert "mine, newer 7004" in _saved_text(page, LESSON_PATH), "newer work was replaced unasked"
    assert "mine, older 7003" in json.dumps(page.evaluate(BACKUP_JS, EXERCISE_PATH)), (
        "the replaced copy is kept"
    )
    assert page.locator('tr[data-exercise="fault05"] .fl-badge').inner_text() == "passed ✔"

    # Cancel changes nothing; a file that is not progress is refused in one sentence.
    _import(page, _v2_file(tmp_path, "2026-12-30T00:00:00.000Z", "2026-12-30T00:00:00.000Z"))
    dialog.get_by_role("button", name="Cancel").click()
    page.locator(".fl-progress-result", has_text="Import cancelled: nothing was changed.").wait_for()
    assert "from the file 7001" in _saved_text(page, EXERCISE_PATH)
    broken = tmp_path / "notes.json"
    broken.write_text("{not json")
    _import(page, broken)
    page.locator(
        ".fl-progress-result",
        has_text="Nothing was imported: notes.json cannot be read, because it is not JSON.",
    ).wait_for()
    traffic.assert_clean()


def test_a_version_1_file_still_imports(new_context, base_url, tmp_path):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = _new_page(context)
    page.goto(base_url + "exercises/")
    v1 = tmp_path / "fault-lines-progress.json"  # fault02 is still at version 1: its "passed" stands
    v1.write_text(
        json.dumps(
            {
                "exercises": {
                    "fault02": {
                        "status": "passed",
                        "version": 1,
                        "code": "x",
                        "at": "2026-11-20T10:02:13.000Z",
                    }
                }
            }
        )
    )
    _restore(page, v1, "fault02: passed (version 1)", "1 exercise and 0 notebooks")
    assert page.locator('tr[data-exercise="fault02"] .fl-badge').inner_text() == "passed ✔"
    assert page.evaluate(PROGRESS_JS)["exercises"]["fault02"]["status"] == "passed"
    traffic.assert_clean()


@pytest.mark.parametrize(("width", "scheme"), COMBOS)
def test_reset_to_the_original_asks_first_and_keeps_a_copy_to_restore(new_context, base_url, width, scheme):
    context, traffic = new_context(**screen(width, scheme))
    without_warm_up(context)
    page = context.new_page()
    page.goto(base_url + "lessons/01_mini_runtime/")
    page.evaluate(PUT_COPY_JS, [STORAGE, LESSON_PATH, "# my work 7101", "2026-12-01T10:00:00.000Z"])
    page.reload()

    reset = page.get_by_role("button", name="Reset to the original")
    confirm = page.locator(".fl-lab__confirm")
    reset.click()
    confirm.wait_for()
    assert "Your copy is kept" in confirm.inner_text()
    assert page.evaluate("document.activeElement.textContent") == "Cancel"
    page.keyboard.press("Enter")  # Cancel: nothing happens
    assert confirm.is_hidden() and "my work 7101" in _saved_text(page, LESSON_PATH)

    reset.click()
    confirm.get_by_role("button", name="Reset it").click()
    restore = page.locator(".fl-lab__restore")
    restore.filter(
        has_text="The notebook is back to the original. Your copy is kept in this browser"
    ).wait_for()
    assert page.evaluate(READ_SAVED_COPY_JS, [STORAGE, LESSON_PATH]) is None
    assert "my work 7101" in json.dumps(page.evaluate(BACKUP_JS, LESSON_PATH))
    box = restore.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width

    # The copy stays restorable after a reload, and comes back.
    page.reload()
    page.locator(".fl-lab__restore").wait_for()
    page.get_by_role("button", name="Restore my copy").click()
    page.locator(".fl-lab__restore-text", has_text="Your copy is back").wait_for()
    assert "my work 7101" in _saved_text(page, LESSON_PATH)
    traffic.assert_clean()


class _Panels(HTMLParser):
    def __init__(self):
        super().__init__()
        self.labs = 0
        self.resets = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if "fl-lab" in classes and dict(attrs).get("data-notebook"):
            self.labs += 1
        if "fl-lab__reset-original" in classes:
            self.resets += 1


def test_every_lab_has_reset_to_the_original(site_dir):
    pages = [p for p in site_dir.rglob("*.html") if p.relative_to(site_dir).parts[0] != "lite"]
    counted = []
    for page in pages:
        panels = _Panels()
        panels.feed(page.read_text())
        if panels.labs:
            assert panels.resets == panels.labs, page
            counted.append(page)
    assert len(counted) >= 12 + 14, "every lesson and every exercise has a lab"
