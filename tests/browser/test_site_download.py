""" "Download .ipynb" on a lesson page, in real Chromium: the notebook as shipped until the
learner saves a copy in the lab, then that copy (it lives only in the browser's IndexedDB)."""

from __future__ import annotations

import json
import subprocess

import pytest
from site_browser import (
    AGE_SAVED_COPY_JS,
    REPO,
    panel_data,
    start_lab,
    type_in_first_cell,
    wait_for_saved_copy,
)

pytestmark = pytest.mark.browser

EDIT_MARKER = "# learner edit for download 5821"
# nbformat's own validator, from the venv that builds the site (the test venv lacks it).
VALIDATE_NOTEBOOK = "import nbformat, sys; nbformat.validate(nbformat.reads(sys.stdin.read(), as_version=4))"


def _download(page) -> tuple[str, bytes]:
    with page.expect_download(timeout=30_000) as info:
        page.get_by_role("link", name="Download .ipynb").click()
    download = info.value
    assert download.failure() is None
    with open(download.path(), "rb") as file:
        return download.suggested_filename, file.read()


def _assert_valid_notebook(body: bytes) -> None:
    result = subprocess.run(
        [str(REPO / ".venv-site/bin/python"), "-c", VALIDATE_NOTEBOOK], input=body, capture_output=True
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]


def test_download_gives_the_shipped_notebook_until_the_learner_saves_a_copy(new_context, base_url, site_dir):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    lesson = base_url + "lessons/01_mini_runtime/"
    page.goto(lesson)
    data = panel_data(page)
    file_name = data["notebook"].rsplit("/", 1)[-1]
    shipped = (site_dir / "lite/files" / data["notebook"]).read_bytes()

    # A browser that never opened the lab gets the notebook as shipped.
    assert _download(page) == (file_name, shipped)

    # The learner edits in the lab (saved as they go): the download is their copy, a valid notebook.
    frame_locator, _ = start_lab(page)
    type_in_first_cell(page, frame_locator, EDIT_MARKER)
    wait_for_saved_copy(page, data["storage"], data["notebook"], EDIT_MARKER)
    name, body = _download(page)
    assert name == file_name
    _assert_valid_notebook(body)
    notebook = json.loads(body)
    assert notebook["nbformat"] == 4
    assert notebook["metadata"]["fault_lines"]["source_sha256"] == data["sha256"]
    first_code = next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")
    assert EDIT_MARKER in "".join(first_code["source"])

    # After "Reset to the new version" the copy is gone, and the shipped notebook comes back.
    page.goto(lesson)
    page.evaluate(AGE_SAVED_COPY_JS, [data["storage"], data["notebook"]])
    page.reload()
    page.get_by_role("button", name="Reset to the new version").click()
    page.locator(".fl-lab__notice").wait_for(state="hidden", timeout=10_000)
    assert _download(page) == (file_name, shipped)

    traffic.assert_clean()
