"""Shared by the site tests: driving the embedded lab or playground the way a learner does (start
it, run cells, edit, save). The browser itself, which the benchmark drives too, is in
hooks/site_build/browser.py. Named uniquely: tests/ has other conftest modules, so nothing
imports from `conftest`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from hooks.site_build.browser import SESSION_READY_JS

if TYPE_CHECKING:  # playwright may be missing: the tests then skip instead of failing to import
    from playwright.sync_api import Frame, FrameLocator, Page

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "site"
BOOT_TIMEOUT_MS = 240_000  # a cold kernel boot on 2 cores shared with other builds, with margin

# All saved copies of a notebook in the lab's browser storage (see docs/javascripts/lab.js).
READ_SAVED_COPY_JS = """async ([storage, path]) => {
  const db = await new Promise((ok, fail) => { const r = indexedDB.open(storage); r.onsuccess = () => ok(r.result); r.onerror = fail; });
  try {
    if (!db.objectStoreNames.contains('files')) return null;
    return await new Promise((ok) => { const r = db.transaction('files').objectStore('files').get(path); r.onsuccess = () => ok(r.result || null); });
  } finally { db.close(); }
}"""

# Rewrites the hash stored with the learner's copy, as if it had been saved from an older
# shipped version of the notebook.
AGE_SAVED_COPY_JS = """async ([storage, path]) => {
  const db = await new Promise((ok, fail) => { const r = indexedDB.open(storage); r.onsuccess = () => ok(r.result); r.onerror = fail; });
  const tx = db.transaction('files', 'readwrite');
  const store = tx.objectStore('files');
  const model = await new Promise((ok) => { const r = store.get(path); r.onsuccess = () => ok(r.result); });
  model.content.metadata.fault_lines.source_sha256 = 'from-an-older-build';
  store.put(model, path);
  await new Promise((ok) => { tx.oncomplete = ok; });
  db.close();
}"""


def start_lab(page: Page) -> tuple[FrameLocator, Frame]:
    """Click "Start the lab" and wait until the notebook app shows its notebook."""
    page.get_by_role("button", name="Start the lab").click()
    return wait_for_lab(page)


def wait_for_lab(page: Page) -> tuple[FrameLocator, Frame]:
    """Wait until the lesson's lab iframe shows its notebook and its app is restored."""
    frame_locator = page.frame_locator("iframe.fl-lab__iframe")
    frame_locator.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    frame = page.frame(url=lambda url: "/lite/notebooks/" in url)
    frame.wait_for_function("() => window.jupyterapp", timeout=BOOT_TIMEOUT_MS)
    frame.evaluate("() => window.jupyterapp.restored")
    return frame_locator, frame


def start_playground(page: Page) -> tuple[FrameLocator, Frame]:
    """Click "Start the playground" and wait until the lab app shows its file browser."""
    page.get_by_role("button", name="Start the playground").click()
    frame_locator = page.frame_locator("iframe.fl-lab__iframe")
    frame_locator.locator(".jp-FileBrowser .jp-DirListing-item").first.wait_for(timeout=BOOT_TIMEOUT_MS)
    frame = page.frame(url=lambda url: "/lite/lab/" in url)
    frame.wait_for_function("() => window.jupyterapp", timeout=BOOT_TIMEOUT_MS)
    frame.evaluate("() => window.jupyterapp.restored")
    return frame_locator, frame


def type_in_first_cell(page: Page, frame_locator: FrameLocator, text: str) -> None:
    """Append a line to the first code cell as a learner would (and press nothing else: no Ctrl+S)."""
    editor = frame_locator.locator(".jp-CodeCell .cm-content").first
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n" + text)


def wait_until(page_or_frame, async_js: str, arg: object = None, timeout_ms: int = 30_000) -> None:
    """Wait until an async predicate (`async (arg) => bool`) holds. Not wait_for_function: that
    takes the predicate's Promise itself for its answer, and a Promise is truthy, so an async
    predicate passes at once whatever it would resolve to."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page_or_frame.evaluate(async_js, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_ms} ms: {async_js[:200]}")
        page_or_frame.wait_for_timeout(200)


def wait_for_saved_copy(page: Page, storage: str, path: str, marker: str) -> None:
    """Wait until the saved copy of the notebook in the lab's browser storage has `marker`."""
    wait_until(
        page,
        "async (args) => { const m = await (" + READ_SAVED_COPY_JS + ")(args);"
        " return !!m && JSON.stringify(m.content).includes(args[2]); }",
        [storage, path, marker],
    )


def run_all_cells(frame: Frame) -> None:
    # Not awaited: the command settles only when every cell has run, and evaluate() has no
    # timeout; callers wait for the outputs they expect instead.
    # Run-all is a silent no-op until the notebook panel is current, its file is loaded and its
    # kernel session exists (the kernel itself may still be booting: requests queue for it).
    frame.wait_for_function(SESSION_READY_JS, timeout=BOOT_TIMEOUT_MS)
    frame.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def wait_for_output(frame_locator: FrameLocator, text: str) -> str:
    output = frame_locator.locator(".jp-OutputArea-output", has_text=text).first
    try:
        output.wait_for(timeout=BOOT_TIMEOUT_MS)
    except Exception as error:
        # Say what the notebook showed instead (kernel status, prompts, tracebacks).
        shown = frame_locator.locator("body").inner_text()[-3000:]
        raise AssertionError(f"no output containing {text!r}; the lab showed:\n{shown}") from error
    # textContent, not innerText: once run-all has scrolled a long notebook on, the notebook stops
    # rendering cells out of view, and innerText of an output there is "".
    return output.text_content() or ""


# Scrolls the notebook to its end and says whether an output holding `text` exists yet.
SCROLL_TO_END_JS = """(text) => {
  const outer = document.querySelector('.jp-WindowedPanel-outer');
  if (outer) outer.scrollTop = outer.scrollHeight;
  return [...document.querySelectorAll('.jp-OutputArea-output')].some((e) => e.textContent.includes(text));
}"""


def wait_for_output_at_end(frame: Frame, frame_locator: FrameLocator, text: str) -> str:
    """wait_for_output for an output near the end of a long notebook (a lesson's widget):
    JupyterLab renders only the cells near the viewport, so keep scrolling down while waiting."""
    try:
        frame.wait_for_function(SCROLL_TO_END_JS, arg=text, timeout=BOOT_TIMEOUT_MS, polling=1000)
    except Exception:
        pass  # wait_for_output says what the lab showed instead
    return wait_for_output(frame_locator, text)


def panel_data(page: Page) -> dict:
    return page.locator(".fl-lab").evaluate("(el) => ({...el.dataset})")


# Runs code in the open notebook's kernel (not through a cell) and returns its outputs:
# [{"type": "stream" | "error" | "execute_result" | "display_data", "content": {...}}].
EXECUTE_IN_KERNEL_JS = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.ready;
  const outputs = [];
  const future = panel.sessionContext.session.kernel.requestExecute({ code, stop_on_error: false });
  future.onIOPub = (msg) => {
    if (["stream", "error", "execute_result", "display_data"].includes(msg.header.msg_type)) {
      outputs.push({ type: msg.header.msg_type, content: msg.content });
    }
  };
  await future.done;
  return outputs;
}"""


def execute_in_kernel(frame: Frame, code: str) -> list[dict]:
    return frame.evaluate(EXECUTE_IN_KERNEL_JS, code)


def stdout_of(outputs: list[dict]) -> str:
    return "".join(o["content"]["text"] for o in outputs if o["type"] == "stream")


def without_warm_up(context) -> None:
    """No lab warm-up while a page is read (docs/javascripts/lab_prefetch.js): for tests that
    sweep many pages (each would start Python in a worker), and for a kernel that must start
    cold, as for a learner who clicks at once."""
    context.route(
        "**/lite/prefetch.json", lambda route: route.fulfill(body="[]", content_type="application/json")
    )


def screen(width: int, scheme: str) -> dict:
    """Browser context options for a reader at `width` px in the light or dark scheme; under 600
    px, a phone (touch, twice the pixels)."""
    phone = width < 600
    options = {"viewport": {"width": width, "height": 844 if phone else 900}, "color_scheme": scheme}
    if phone:
        options.update(device_scale_factor=2, has_touch=True, is_mobile=True)
    return options
