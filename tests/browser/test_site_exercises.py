"""An exercise in the lab, in real Chromium: check() fails the starter, passes a right answer,
and the Exercises page shows it passed after a reload (progress kept in this browser)."""

from __future__ import annotations

import pytest
from site_browser import BOOT_TIMEOUT_MS, REPO, run_all_cells, start_lab

pytestmark = pytest.mark.browser

SET_ANSWER_JS = """(source) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.widgets;
  const answer = cells.find((cell) => cell.model.type === "code" && cell.model.sharedModel.getSource().includes("def "));
  answer.model.sharedModel.setSource(source);
}"""


def _wait_report(frame_locator, verdict: str) -> str:
    report = frame_locator.locator(f".fl-report.fl-{verdict}").first
    report.wait_for(timeout=BOOT_TIMEOUT_MS)
    return report.inner_text()


def test_check_fails_then_passes_and_the_exercises_page_remembers(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "exercises/fault05/")
    assert "not tried yet" in page.locator(".fl-ex-status").inner_text()

    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    failing = _wait_report(frame_locator, "failed")
    assert "charged-at-most-once" in failing and "order 17 charged 2 times" in failing
    assert "Share this failing run" in failing

    frame.evaluate(SET_ANSWER_JS, (REPO / "exercises/fault05/reference.py").read_text())
    frame.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    passing = _wait_report(frame_locator, "passed")
    assert "10/10 points" in passing
    page.wait_for_function(
        "() => (JSON.parse(localStorage.getItem('fault-lines.progress.v1') || '{}').exercises || {})"
        ".fault05?.status === 'passed'",
        timeout=30_000,
    )

    page.goto(base_url + "exercises/")
    page.reload()
    row = page.locator('tr[data-exercise="fault05"] .fl-ex-cell')
    row.wait_for()
    assert row.inner_text().startswith("passed")
    assert page.locator('tr[data-exercise="fault00"] .fl-ex-cell').inner_text() == "not tried yet"
    assert traffic.off_site() == []
