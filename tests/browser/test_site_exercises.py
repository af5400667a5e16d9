"""An exercise in the lab, in real Chromium: check() fails the starter, passes a right answer,
and the Exercises page shows it passed after a reload (progress kept in this browser). A check
made while the answer cell has an edit not run says so on its report (the kernel grades the cell
as it last ran), and an answer cell whose last run failed is refused, naming the cell."""

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


# Runs one cell of the open notebook as the learner does: selected, then Run. Not awaited (see
# site_browser.run_all_cells): callers wait for the output they expect.
RUN_CELL_JS = """(index) => {
  const app = window.jupyterapp;
  app.shell.currentWidget.content.activeCellIndex = index;
  app.commands.execute("notebook:run-cell");
}"""
ANSWER_CELL, CHECK_CELL = 3, 4  # hooks/site_build/exercise_pages.py: statement, setup, words, answer, check


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

    # The learner edits the answer back to the starter and checks without running it: the
    # kernel grades the reference it ran last, and the lab says so on that report, at its top.
    frame.evaluate(SET_ANSWER_JS, (REPO / "exercises/fault05/starter.py").read_text())
    frame.evaluate(RUN_CELL_JS, CHECK_CELL)
    unrun = frame_locator.locator(".fl-report.fl-passed .fl-report__unrun")
    unrun.wait_for(timeout=BOOT_TIMEOUT_MS)
    assert "edit you have not run" in unrun.inner_text()

    # Run, with a syntax error: check() refuses, naming the cell, and nothing is left unrun.
    frame.evaluate(SET_ANSWER_JS, "def process_order(api, order_id, amount:\n    pass\n")
    frame.evaluate(RUN_CELL_JS, ANSWER_CELL)
    frame_locator.locator(".jp-CodeCell .jp-OutputArea-output", has_text="SyntaxError").first.wait_for(
        timeout=BOOT_TIMEOUT_MS
    )
    frame.evaluate(RUN_CELL_JS, CHECK_CELL)
    refused = frame_locator.locator(".fl-report", has_text="Cannot grade:")
    refused.wait_for(timeout=BOOT_TIMEOUT_MS)
    words = refused.inner_text()
    assert "which defines process_order, failed when it last ran (SyntaxError" in words, words
    assert "an older one" in words and frame_locator.locator(".fl-report__unrun").count() == 0

    page.goto(base_url + "exercises/")
    page.reload()
    row = page.locator('tr[data-exercise="fault05"] .fl-ex-cell')
    row.wait_for()
    assert row.inner_text().startswith("passed")
    assert page.locator('tr[data-exercise="fault00"] .fl-ex-cell').inner_text() == "not tried yet"
    assert traffic.off_site() == []
