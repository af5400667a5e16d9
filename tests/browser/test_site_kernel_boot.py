"""How the lab's kernel starts (playground/kernel_boot.mjs), in real Chromium, offline.

The first start boots Python and saves a memory snapshot in the browser's Cache Storage; the
next start restores it. A restored kernel must be indistinguishable to the learner: lessons
run, packages not imported at boot still import, and the offline notice for plots still
speaks. A snapshot that cannot be restored costs a cold start, never a broken lab.
"""

from __future__ import annotations

import re

import pytest
from site_browser import (
    BOOT_TIMEOUT_MS,
    execute_in_kernel,
    run_all_cells,
    start_lab,
    stdout_of,
    wait_for_output,
    wait_for_output_at_end,
    wait_until,
    without_warm_up,
)

pytestmark = pytest.mark.browser

LESSON = "lessons/01_mini_runtime/"
OFFLINE_SENTENCE = (
    "matplotlib needs the network: plots and the packages they use come from "
    "Pyodide's CDN in the browser, and everything else in this lab works offline."
)

CACHED_SNAPSHOT_JS = """async (bootId) => {
  const cache = await caches.open("fault-lines-kernel");
  const sizes = {};
  for (const request of await cache.keys()) {
    if (!request.url.includes("/" + bootId + "/")) continue;
    sizes[request.url.split("/").pop()] = (await (await cache.match(request)).arrayBuffer()).byteLength;
  }
  return sizes;
}"""

SPOIL_SNAPSHOT_JS = """async (bootId) => {
  const cache = await caches.open("fault-lines-kernel");
  for (const request of await cache.keys()) {
    if (request.url.endsWith("/" + bootId + "/memory")) await cache.put(request, new Response(new Uint8Array(4096)));
  }
}"""


@pytest.fixture(scope="module")
def boot_id(site_dir):
    loader = (site_dir / "lite/static/pyodide/kernel-boot.mjs").read_text()
    return re.search(r'const BOOT_ID = "([0-9a-f]{16})"', loader).group(1)


def _wait_for_snapshot(page, boot_id, timeout_ms: int = 60_000) -> dict:
    """The snapshot is written in the background after the first boot: wait until it is (the
    memory only: the site-packages files come from the boot pack on every start)."""
    wait_until(
        page,
        "async (bootId) => { const s = await (" + CACHED_SNAPSHOT_JS + ")(bootId); return s.memory > 1e6; }",
        boot_id,
        timeout_ms=timeout_ms,
    )
    return page.evaluate(CACHED_SNAPSHOT_JS, boot_id)


def _boot_lesson(page, base_url):
    page.goto(base_url + LESSON)
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    return frame


def _assert_notebook_folder_is_the_cwd(frame) -> None:
    """The kernel sees the lab's files: it runs in the notebook's folder on the contents drive
    (mounted through JupyterLite's service worker, which a fast kernel start could outrun)."""
    out = stdout_of(execute_in_kernel(frame, "import os; print(os.getcwd()); print(sorted(os.listdir('.')))"))
    cwd, listing = out.splitlines()
    assert cwd == "/drive/lessons" and "01_mini_runtime.ipynb" in listing, out


def _offline_plot_error(frame) -> dict:
    (error,) = [o for o in execute_in_kernel(frame, "import matplotlib") if o["type"] == "error"]
    return error["content"]


def test_second_start_restores_the_snapshot_and_behaves_like_a_fresh_kernel(new_context, base_url, boot_id):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    without_warm_up(context)
    page = context.new_page()
    console = []
    context.on("console", lambda msg: console.append(msg.text))

    # First start: a cold boot, which leaves a snapshot behind for this build.
    frame = _boot_lesson(page, base_url)
    sizes = _wait_for_snapshot(page, boot_id)
    assert not any("restored from this browser's kernel snapshot" in line for line in console)
    _assert_notebook_folder_is_the_cwd(frame)

    first_draw = stdout_of(execute_in_kernel(frame, "import random; print(random.random())"))

    # Offline, importing matplotlib ends in one sentence, not Pyodide's install advice.
    error = _offline_plot_error(frame)
    assert error["evalue"] == OFFLINE_SENTENCE
    assert error["traceback"][-1].endswith(OFFLINE_SENTENCE)

    # Second start: restored from the snapshot.
    console.clear()
    frame = _boot_lesson(page, base_url)
    assert any(f"restored from this browser's kernel snapshot {boot_id}" in line for line in console), console
    _assert_notebook_folder_is_the_cwd(frame)

    # The global random generator is reseeded, not replayed from the snapshot's state.
    assert stdout_of(execute_in_kernel(frame, "import random; print(random.random())")) != first_draw

    # Modules not imported at boot load from the restored site-packages; completion works.
    out = stdout_of(
        execute_in_kernel(
            frame,
            (
                "import ipywidgets, jedi\n"
                "print(ipywidgets.__version__, [c.name for c in jedi.Script('import os; os.pa').complete()][:2])\n"
                "print(sorted(n for n in ('NeedsTheNetwork', 'install', 'sys', 'miniray', 'micropip', 'gc', 'still_open') if n in dir()))\n"
                "import micropip; print(micropip.list()['miniray'].version)\n"
                # The grader came back with the snapshot: an exercise's first check() imports nothing.
                "import sys; print(all(m in sys.modules for m in ('faultlines.notebook', 'faultlines.grader.search')))"
            ),
        )
    )
    assert out.splitlines() == ["8.1.9 ['pardir', 'path']", "[]", "0.1.0", "True"], out
    # The offline notice came back with the snapshot.
    assert _offline_plot_error(frame)["evalue"] == OFFLINE_SENTENCE
    assert sizes["memory"] > 20e6  # Python's whole heap after importing IPython & co

    # Another lesson starts warm from the same snapshot, and its widgets talk to Python.
    console.clear()
    page.goto(base_url + "lessons/06_checkpoint_interval/")
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    wait_for_output_at_end(frame, frame_locator, "interval 1.00 h: expected overhead")
    assert any(f"restored from this browser's kernel snapshot {boot_id}" in line for line in console), console
    handle = frame_locator.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")
    wait_for_output(frame_locator, "interval 1.05 h: expected overhead")

    traffic.assert_clean()


def test_a_snapshot_that_cannot_be_restored_costs_a_cold_start_not_a_broken_lab(
    new_context, base_url, boot_id
):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    without_warm_up(context)
    page = context.new_page()
    console = []
    context.on("console", lambda msg: console.append(msg.text))
    _boot_lesson(page, base_url)
    _wait_for_snapshot(page, boot_id)

    page.evaluate(SPOIL_SNAPSHOT_JS, boot_id)
    console.clear()
    _boot_lesson(page, base_url)
    assert any("the saved kernel snapshot could not be restored" in line for line in console), console
    # The cold start saved a good snapshot again.
    assert _wait_for_snapshot(page, boot_id)["memory"] > 20e6

    traffic.assert_clean()


def test_reading_the_page_warms_the_kernel_up_so_the_first_start_restores(new_context, base_url, boot_id):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console = []
    context.on("console", lambda msg: console.append(msg.text))
    # The learner reads; meanwhile the page makes this browser's snapshot in a worker.
    page.goto(base_url + LESSON)
    _wait_for_snapshot(page, boot_id, timeout_ms=BOOT_TIMEOUT_MS)
    # Then the lab starts unseen (test_site_lab_start.py): none is shown before the click.
    assert not page.locator(".fl-lab--started").count(), "the warm-up started the lab"
    assert not page.locator("iframe.fl-lab__iframe").is_visible()

    # The first start is then a warm one, and the lab works.
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    assert any(f"restored from this browser's kernel snapshot {boot_id}" in line for line in console), console
    _assert_notebook_folder_is_the_cwd(frame)
    traffic.assert_clean()
