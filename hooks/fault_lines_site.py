"""MkDocs hook: builds the JupyterLite playground and wires it into the course pages.

- on_config: lists docs/design/ pages in the nav, last, under "Contributing".
- on_pre_build: renders the lesson figures (lessons/figures/*.py, see lesson_figures.py), writes the
  shipped notebooks, runs the lite build (build/lite).
- on_files: adds each figure's SVG to the site as figures/<name>.svg.
- on_page_markdown: `{{ num <module>.<key> }}` becomes a number computed by lessons/numbers/<module>.py
  (see lesson_numbers.py); `{{ figure <name> }}` lines become the figure with its alt text and caption;
  a page whose front matter names `notebook: <stem>` gets the lab panel after its title;
  `playground: true` gets the full-app panel.
- on_post_build: copies the lite build into site/lite, checks no page names a CDN, and warns
  (so --strict fails) about a figure no page shows.

FAULT_LINES_SKIP_LITE=1 skips the JupyterLite build (notebooks are still written, so hashes and
links are real): a quick `mkdocs build --strict` for checking pages and links only.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from pathlib import Path

import exercise_pages
import lab_panel
import lesson_figures
import lesson_notebooks
import lesson_numbers
import lite_build
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.fault_lines")
REPO = Path(__file__).resolve().parent.parent
LITE_BUILD = REPO / "build/lite"
# Hosts the built pages must never load from (Google Fonts is Material's default).
CDN_PATTERN = re.compile(r"cdn\.jsdelivr|unpkg\.com|fonts\.googleapis|cdnjs\.")

_notebooks: dict[str, lesson_notebooks.ShippedNotebook] = {}
_figures: dict[str, lesson_figures.RenderedFigure] = {}
_figures_shown: set[str] = set()
_numbers = lesson_numbers.Numbers(REPO)


def _skip_lite() -> bool:
    return os.environ.get("FAULT_LINES_SKIP_LITE") == "1"


def _storage_name() -> str:
    config = json.loads((REPO / "playground/jupyter-lite.json").read_text())
    return config["jupyter-config-data"]["contentsStorageName"]


def on_config(config, **kwargs):
    # docs/design/ is written by the course's engineers, for maintainers rather than learners:
    # list its pages at the end, under "Contributing", without anyone editing mkdocs.yml, so a
    # new design note never fails the strict build for nav.
    design = sorted((Path(config["docs_dir"]) / "design").glob("*.md"))
    if design and config["nav"] is not None:
        config["nav"].append({"Contributing": [f"design/{page.name}" for page in design]})
    exercise_pages.add_nav(config, REPO)
    return config


def on_pre_build(config, **kwargs):
    # Figures first: a broken one fails the build in seconds, before the half-minute lite build.
    _figures.clear()
    _figures_shown.clear()
    global _numbers
    _numbers = lesson_numbers.Numbers(REPO)  # fresh each build: `mkdocs serve` rebuilds
    try:
        _figures.update(lesson_figures.render_all(REPO))
    except lesson_figures.FigureError as error:
        raise SystemExit(str(error)) from None
    _notebooks.clear()
    if _skip_lite():
        _notebooks.update(lesson_notebooks.write_notebooks(REPO, REPO / "build/notebooks-only"))
        _notebooks.update(exercise_pages.write_notebooks(REPO, REPO / "build/notebooks-only"))
        log.info("FAULT_LINES_SKIP_LITE=1: site built without the JupyterLite playground")
        return
    _notebooks.update(lite_build.build_lite(REPO, LITE_BUILD, log=log.info))


def on_files(files, config, **kwargs):
    for figure in _figures.values():
        files.append(File.generated(config, figure.site_path, content=figure.svg))
    for page in exercise_pages.files(config, REPO):
        files.append(page)
    return files


def _insert_after_title(markdown: str, html: str) -> str:
    lines = markdown.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join([*lines[: index + 1], html, *lines[index + 1 :]]) + "\n"
    return html + "\n" + markdown


def on_page_markdown(markdown, page, config, files, **kwargs):
    try:
        markdown = _numbers.fill(markdown, page.file.src_path)
    except lesson_numbers.NumbersError as error:
        raise SystemExit(str(error)) from None
    try:
        markdown, shown = lesson_figures.place(
            markdown, lab_panel.site_root_prefix(page.url), _figures, page.file.src_path
        )
    except lesson_figures.FigureError as error:
        raise SystemExit(str(error)) from None
    _figures_shown.update(shown)
    stem = page.meta.get("notebook")
    if stem:
        if stem not in _notebooks:
            raise SystemExit(f"{page.file.src_path}: notebook '{stem}' is not in lessons/ or exercises/")
        shipped = _notebooks[stem]
        panel = lab_panel.lesson_panel(page.url, shipped.path, shipped.sha256, _storage_name())
        return _insert_after_title(markdown, panel)
    if page.meta.get("playground"):
        return _insert_after_title(markdown, lab_panel.playground_panel(page.url))
    return markdown


def on_post_build(config, **kwargs):
    site_dir = Path(config["site_dir"])
    for name in sorted(set(_figures) - _figures_shown):
        log.warning(
            f"figure '{name}' ({lesson_figures.SCRIPTS_DIR}/{name}.py) is on no page: "
            f"add a '{{{{ figure {name} }}}}' line to a lesson, or remove the script"
        )
    # Our pages and assets only: Material's bundle names unpkg for a ResizeObserver polyfill and
    # mermaid, fetched only by browsers lacking the one or pages using the other (neither here);
    # the browser tests check the requests pages really make.
    ours = [
        *site_dir.rglob("*.html"),
        *(site_dir / "javascripts").rglob("*"),
        *(site_dir / "stylesheets").rglob("*"),
    ]
    offenders = [
        str(path.relative_to(site_dir))
        for path in ours
        if path.is_file() and CDN_PATTERN.search(path.read_text(errors="ignore"))
    ]
    if offenders:
        raise SystemExit(f"built pages name a CDN (the site must be self-contained): {offenders}")
    if not _skip_lite():
        shutil.copytree(LITE_BUILD, site_dir / lab_panel.LITE_DIR, dirs_exist_ok=True)
