"""HTML of the lab panel a lesson page (or the Playground page) carries.

Nothing heavy happens until "Start the lab": the iframe to the JupyterLite app is created by
docs/javascripts/lab.js on click, so a lesson page opens instantly and boots one kernel only
when asked. The panel carries what the script needs as data attributes.

On a phone the started lab fills the screen (`.fl-lab__stage`), with a bar to go back to the
lesson: an embedded notebook would take the screen's height and trap the finger's scrolling.
"""

from __future__ import annotations

from html import escape

LITE_DIR = "lite"  # where the JupyterLite build sits inside the site


# Shared by both panels: the failure notice (shown by lab.js when the kernel cannot start) and
# the stage that holds the iframe. The stage's bar says what the lab is doing (lab_start.js: the
# start's phases and bytes, then the kernel's status, which JupyterLab hides in an overflow menu
# on a phone) and, over a full-screen lab on a phone, leads back to the lesson. The cover hides
# the iframe until its notebook shows in the page's scheme: no blank or white frame meanwhile.
_STAGE = """  <div class="admonition failure fl-lab__failed" role="alert" hidden>
    <p class="fl-lab__failed-text"></p>
    <p><button type="button" class="md-button md-button--primary fl-lab__retry">Retry</button></p>
  </div>
  <div class="fl-lab__stage">
    <div class="fl-lab__bar">
      <button type="button" class="md-button fl-lab__collapse">Back to the page</button>
      <p class="fl-lab__status"><span class="fl-lab__phase" role="status"></span><span class="fl-lab__bytes"></span></p>
      <progress class="fl-lab__meter" max="1" aria-label="Lab start"></progress>
    </div>
    <div class="fl-lab__frame">
      <div class="fl-lab__cover" aria-hidden="true"><p class="fl-lab__cover-text"></p>
        <progress class="fl-lab__cover-meter" max="1"></progress></div>
    </div>
  </div>"""

# The quiet line under the buttons: the warm-up that runs while the learner reads
# (lab_prefetch.js) and, on a lesson, the way back from a reset (lab_reset.js).
_WARM = '  <p class="fl-lab__warm" hidden></p>'
_RESET = """  <div class="fl-lab__confirm" role="group" aria-label="Reset to the original" hidden>
    <p>Put the notebook back as the course ships it? Your copy is kept in this browser, and
    "Restore my copy" brings it back.</p>
    <p><button type="button" class="md-button md-button--primary fl-lab__confirm-reset">Reset it</button>
    <button type="button" class="md-button fl-lab__confirm-cancel">Cancel</button></p>
  </div>
  <div class="fl-lab__restore" hidden>
    <p class="fl-lab__restore-text" role="status"></p>
    <p><button type="button" class="md-button fl-lab__restore-copy">Restore my copy</button></p>
  </div>"""


def site_root_prefix(page_url: str) -> str:
    """Relative path from a page (directory URLs, e.g. 'lessons/01_mini_runtime/') to the site root."""
    depth = len([part for part in page_url.split("/") if part])
    return "../" * depth


def lesson_panel(page_url: str, notebook_path: str, sha256: str, storage_name: str) -> str:
    lite = f"{site_root_prefix(page_url)}{LITE_DIR}/"
    path = escape(notebook_path, quote=True)
    name = escape(notebook_path.rsplit("/", 1)[-1], quote=True)
    return f"""
<div class="fl-lab" data-app="notebooks" data-lite="{lite}" data-notebook="{path}"
     data-sha256="{sha256}" data-storage="{escape(storage_name, quote=True)}">
  <div class="fl-lab__actions">
    <button type="button" class="md-button md-button--primary fl-lab__start">Start the lab</button>
    <a class="md-button fl-lab__playground" href="{lite}lab/index.html?path={path}">Open in the playground</a>
    <a class="md-button fl-lab__download" href="{lite}files/{path}" download="{name}">Download .ipynb</a>
    <button type="button" class="md-button fl-lab__reset-original">Reset to the original</button>
  </div>
{_WARM}
{_RESET}
  <div class="admonition warning fl-lab__notice" role="alert" hidden>
    <p class="admonition-title">This notebook has a newer version</p>
    <p>The lesson's notebook changed since you saved your copy in this browser, and your copy is
    the one that opens. Reset to get the new version (your edits to this notebook are lost), or
    keep your copy.</p>
    <p><button type="button" class="md-button md-button--primary fl-lab__reset">Reset to the new version</button>
    <button type="button" class="md-button fl-lab__keep">Keep my copy</button></p>
  </div>
{_STAGE}
</div>
"""


def playground_panel(page_url: str) -> str:
    lite = f"{site_root_prefix(page_url)}{LITE_DIR}/"
    return f"""
<div class="fl-lab fl-lab--playground" data-app="lab" data-lite="{lite}">
  <div class="fl-lab__actions">
    <button type="button" class="md-button md-button--primary fl-lab__start">Start the playground</button>
    <a class="md-button" href="{lite}lab/index.html">Open it full screen</a>
  </div>
{_WARM}
{_STAGE}
</div>
"""


# Where the replay page (exercise_pages.py) wants its panel: the build puts replay_panel there.
REPLAY_SLOT = "<!-- fl-replay-panel -->"


def replay_panel(page_url: str, storage_name: str) -> str:
    """The lab of the replay page. Its notebook is the shared run's, which exist only in the
    learner's browser: docs/javascripts/exercises.js writes it there, names it (data-notebook,
    the links' targets) and then starts the lab (lab.js: at once on a desktop, hidden on a phone
    until "Show the replay"). The notebook runs its cells as it opens (playground/lab_page.js),
    in this panel or in the playground, where the learner edits it."""
    lite = f"{site_root_prefix(page_url)}{LITE_DIR}/"
    return f"""
<div class="fl-lab fl-lab--replay" data-app="notebooks" data-lite="{lite}" data-notebook=""
     data-storage="{escape(storage_name, quote=True)}">
  <div class="fl-lab__actions">
    <button type="button" class="md-button md-button--primary fl-lab__start">Show the replay</button>
    <a class="md-button fl-lab__playground">Edit it in the playground</a>
    <a class="md-button fl-lab__download">Download .ipynb</a>
  </div>
{_WARM}
{_STAGE}
</div>
"""
