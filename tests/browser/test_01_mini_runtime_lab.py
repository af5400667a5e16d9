"""Lesson 1 as a learner meets it: from the home page to the lesson, into its lab, every cell run,
then a cell of their own that kills a worker mid-run and shows the task coming back.

Headless Debian Chromium against the built site (fixtures in conftest.py, lab driving in
site_browser.py); the whole path stays on 127.0.0.1.
"""

from __future__ import annotations

import pytest
from site_browser import BOOT_TIMEOUT_MS, run_all_cells, start_lab

pytestmark = pytest.mark.browser

# Booting cold (a new site build has a new snapshot key) and then running every cell, widgets
# included, takes longer than a boot alone on two busy cores.
RUN_TIMEOUT_MS = 2 * BOOT_TIMEOUT_MS

# Typed into a new cell at the end of the notebook; `squares` is the lab's own story function.
FAULT_CELL = """\
faulty = sim.run(squares, seed=0, faults=["kill_worker node:2 at=0.5"])
print("result:", faulty.value)
print("\\n".join(line for line in faulty.log_text.splitlines() if "task.fail" in line or "square#2/2" in line))
"""

# Adds a code cell with `source` after the last one, selects it and runs it, through the
# notebook's own model and commands (what "insert below, type, Shift+Enter" does).
ADD_AND_RUN_CELL_JS = """(source) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const notebook = panel.content;
  const index = notebook.model.cells.length;
  notebook.model.sharedModel.insertCell(index, { cell_type: "code", source });
  notebook.activeCellIndex = index;
  window.jupyterapp.commands.execute("notebook:run-cell");
}"""


# The notebook draws only the cells near the viewport, so outputs are read from the notebook's
# model: the text of the first output containing `text` (null until one does), or an error's.
OUTPUT_TEXT_JS = """(text) => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  for (const cell of notebook.model.cells) {
    if (cell.type !== "code") continue;
    for (const output of cell.outputs.toJSON()) {
      if (output.output_type === "error") return "ERROR " + output.ename + ": " + output.evalue;
      let shown = output.text ?? (output.data && output.data["text/plain"]) ?? "";
      if (Array.isArray(shown)) shown = shown.join("");
      if (shown.includes(text)) return shown;
    }
  }
  return null;
}"""

# Scrolls the notebook to the cell that displayed the fault-time widget (the debugger's cell also
# shows a widget), so the widget is drawn; null while that cell has displayed none yet.
SHOW_WIDGET_JS = """() => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  const cells = Array.from(notebook.model.cells);
  const index = cells.findIndex((cell) => cell.type === "code"
    && cell.sharedModel.getSource().includes("fault_time(") && cell.outputs.toJSON().some(
    (o) => o.data && o.data["application/vnd.jupyter.widget-view+json"]));
  if (index < 0) return null;
  notebook.scrollToItem(index, "start");
  return index;
}"""


def wait_for_model_output(frame, text: str) -> str:
    shown = frame.wait_for_function(OUTPUT_TEXT_JS, arg=text, timeout=RUN_TIMEOUT_MS).json_value()
    assert not shown.startswith("ERROR "), f"a cell failed before printing {text!r}: {shown}"
    return shown


def test_lesson_one_from_home_page_to_a_recovered_fault(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url)
    page.locator("article a[href*='01_mini_runtime']").first.click()
    page.wait_for_url("**/lessons/01_mini_runtime/")
    assert "The mini-runtime" in page.locator("h1").first.inner_text()
    # The page's story is the build's own run: its log shows the fault and the retry.
    story = page.locator("pre", has_text="kill_node node:1 at=1.5").first.inner_text()
    assert "task.fail task=square attempt=square#5/1 cause=node_died retry=True" in story

    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    # The lab's own fault cell: node:1 dies at 1.5 s and every square still comes back.
    # (Waiting for the cell's last words: a stream output can arrive in pieces.)
    recovered = wait_for_model_output(frame, "replay with seed=0 faults=[kill_node node:1 at=1.5]")
    assert (
        "recovered: True" in recovered
        and "with the fault: [0, 1, 4, 9, 16, 25] at t = 3.5 s, 7 attempts" in recovered
    )
    # The widget drew its timeline and its table.
    frame.wait_for_function(SHOW_WIDGET_JS, timeout=RUN_TIMEOUT_MS)
    frame_locator.locator(".widget-html svg").first.wait_for(timeout=RUN_TIMEOUT_MS)
    table = frame_locator.locator(".widget-html table", has_text="task attempts").first
    table.wait_for(timeout=RUN_TIMEOUT_MS)

    # The learner's own cell: kill a worker of node:2 half a second in.
    frame.evaluate(ADD_AND_RUN_CELL_JS, FAULT_CELL)
    shown = wait_for_model_output(frame, "task.finish task=square attempt=square#2/2")
    assert "result: [0, 1, 4, 9, 16, 25]" in shown
    assert "task.fail task=square attempt=square#2/1 cause=worker_died retry=True" in shown
    assert "task.start task=square attempt=square#2/2" in shown

    traffic.assert_clean()
