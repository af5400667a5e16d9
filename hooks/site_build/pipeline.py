"""The site build, step by step, in the order it runs.

MkDocs drives it from its events (hooks/fault_lines_site.py, the entry mkdocs.yml names), so the
steps fall in five groups:

- on_config, `add_nav`: the exercise pages join the nav, and the design notes join Reference.
- on_pre_build, `prepare`: render the figures (a broken one fails the build in seconds), read
  the lessons and exercises into the notebooks the site ships, then `build_lab`: run the lessons
  under CPython, stage Pyodide and the kernel's wheels, write the lock, `jupyter lite build`,
  reorder the kernel's boot, pack the kernel's boot packages, install its loader.
- on_files, `add_files`: the figures' SVGs and the generated exercise pages.
- on_page_markdown, `fill_page`: check a lesson's prose for typed numbers, place the glossary
  and link its terms' first uses, fill the numbers, place the figures, add the lab panel and
  the Previous/Next links.
- on_post_build, `finish`: check every figure is shown and no page names a CDN, then copy the
  lab into the site, and drop the source maps.

`with_lab=False` (FAULT_LINES_SKIP_LITE=1) skips `build_lab` (notebooks are still written, so
hashes and links are real): a quick `mkdocs build --strict` for checking pages and links only.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from . import (
    exercise_pages,
    glossary,
    kernel_boot,
    kernel_boot_order,
    kernel_dist,
    kernel_lock,
    kernel_pack,
    lab_panel,
    lesson_figures,
    lesson_notebooks,
    lesson_numbers,
    lite_build,
    prose_digits,
    source_maps,
    wayfinding,
)
from .lesson_notebooks import ShippedNotebook

REPO = Path(__file__).resolve().parents[2]
LITE_SRC = REPO / "build/lite-src"  # the staged lite dir: notebooks, Pyodide, configs
LITE_BUILD = REPO / "build/lite"  # the built lab, copied into the site at the end
NOTEBOOKS_ONLY = REPO / "build/notebooks-only"  # where the notebooks go when the lab is skipped
# Hosts the built pages must never load from (Google Fonts is Material's default).
CDN_PATTERN = re.compile(r"cdn\.jsdelivr|unpkg\.com|fonts\.googleapis|cdnjs\.")

Log = Callable[[str], None]


@dataclass
class SiteBuild:
    """What one build made before the pages: the figures, the notebooks and the page numbers."""

    with_lab: bool
    figures: dict[str, lesson_figures.RenderedFigure]
    notebooks: dict[str, ShippedNotebook]
    numbers: lesson_numbers.Numbers
    storage_name: str  # the lab's browser storage, which the panels name
    glossary: list[glossary.Term] = field(default_factory=list)
    lessons: list[wayfinding.Stop] = field(default_factory=list)  # the nav's order
    figures_shown: set[str] = field(default_factory=set)


def add_nav(config: Any) -> Any:
    """The "Exercises" section from the exercise folders; docs/design/ under Reference, "Contributing"."""
    # docs/design/ is written by the course's engineers, for maintainers rather than learners:
    # list its pages last in Reference (not a header tab of its own) without anyone editing
    # mkdocs.yml, so a new design note never fails the strict build for nav.
    design = sorted((Path(config["docs_dir"]) / "design").glob("*.md"))
    if design and config["nav"] is not None:
        contributing = {"Contributing": [f"design/{page.name}" for page in design]}
        reference = next(
            (item for item in config["nav"] if isinstance(item, dict) and "Reference" in item), None
        )
        if reference is not None:
            reference["Reference"].append(contributing)
        else:
            config["nav"].append(contributing)
    exercise_pages.add_nav(config, REPO)
    return config


def prepare(with_lab: bool, log: Log, nav: list[Any] | None = None) -> SiteBuild:
    """Everything before the pages: figures, notebooks and (with_lab) the lab."""
    figures = render_figures()
    if with_lab:
        notebooks = build_lab(LITE_BUILD, log)
    else:
        notebooks = read_notebooks(NOTEBOOKS_ONLY)
        log("FAULT_LINES_SKIP_LITE=1: site built without the JupyterLite playground")
    try:
        terms = glossary.load(REPO)
    except glossary.GlossaryError as error:
        raise SystemExit(str(error)) from None
    return SiteBuild(
        with_lab,
        figures,
        notebooks,
        lesson_numbers.Numbers(REPO),
        _storage_name(),
        glossary=terms,
        lessons=wayfinding.lesson_order(nav),
    )


def render_figures() -> dict[str, lesson_figures.RenderedFigure]:
    try:
        return lesson_figures.render_all(REPO)
    except lesson_figures.FigureError as error:
        raise SystemExit(str(error)) from None


def read_notebooks(contents_dir: Path) -> dict[str, ShippedNotebook]:
    """The lessons (jupytext sources) and the exercises as .ipynb under contents_dir, by stem."""
    notebooks = lesson_notebooks.write_notebooks(REPO, contents_dir)
    notebooks.update(exercise_pages.write_notebooks(REPO, contents_dir))
    return notebooks


def build_lab(out_dir: Path, log: Log) -> dict[str, ShippedNotebook]:
    """The JupyterLite lab with its offline Pyodide kernel, into out_dir; returns the notebooks."""
    started = time.monotonic()
    shutil.rmtree(LITE_SRC, ignore_errors=True)
    LITE_SRC.mkdir(parents=True)
    notebooks = read_notebooks(LITE_SRC / "files")
    lesson_notebooks.execute_lessons(REPO, notebooks)  # a lesson that fails breaks the build
    pyodide_dir = kernel_dist.stage_pyodide(REPO, LITE_SRC)
    kernel_lock.write_lock(
        pyodide_dir, REPO / "node_modules/pyodide/pyodide-lock.json", lite_build.pyodide_cdn_url()
    )
    lite_build.run_lite_build(REPO, LITE_SRC, out_dir)
    lite_build.add_page_script(REPO, out_dir)
    patched = kernel_boot_order.reorder_boot(out_dir)
    log(f"Kernel boot reordered (imports before the drive mount) in {', '.join(patched)}")
    pack = kernel_pack.write_pack(out_dir / "static/pyodide", kernel_boot.boot_packages(out_dir))
    log(
        f"Kernel loader installed (warm starts from snapshot {kernel_boot.install_loader(REPO, out_dir, pack)})"
    )
    lite_build.write_prefetch_list(out_dir)
    log(f"JupyterLite built in {time.monotonic() - started:.1f}s with {len(notebooks)} notebooks")
    return notebooks


def add_files(build: SiteBuild, files: Files, config: Any) -> Files:
    for figure in build.figures.values():
        for scheme, svg in figure.svgs.items():
            files.append(File.generated(config, figure.site_path(scheme), content=svg))
    for page in exercise_pages.files(config, REPO):
        files.append(page)
    return files


def fill_page(build: SiteBuild, markdown: str, src_path: str, url: str, meta: dict[str, Any]) -> str:
    """A page's Markdown with its numbers filled, its figures placed and its lab panel added."""
    try:
        if src_path.startswith("lessons/"):
            prose_digits.check(markdown, src_path)
        if src_path == glossary.PRIMER:
            prose_digits.check(glossary.render(build.glossary), glossary.GLOSSARY_FILE)
            markdown = glossary.place(markdown, build.glossary, src_path)
        elif src_path.startswith(glossary.LINKED_SECTIONS):
            markdown, _ = glossary.link_first_uses(markdown, build.glossary, src_path)
    except (prose_digits.DigitError, glossary.GlossaryError) as error:
        raise SystemExit(str(error)) from None
    markdown = prose_digits.fill_constants(markdown)
    markdown += wayfinding.for_lesson(build.lessons, src_path)
    try:
        markdown = build.numbers.fill(markdown, src_path)
    except lesson_numbers.NumbersError as error:
        raise SystemExit(str(error)) from None
    try:
        markdown, shown = lesson_figures.place(
            markdown, lab_panel.site_root_prefix(url), build.figures, src_path
        )
    except lesson_figures.FigureError as error:
        raise SystemExit(str(error)) from None
    build.figures_shown.update(shown)
    stem = meta.get("notebook")
    if stem:
        if stem not in build.notebooks:
            raise SystemExit(f"{src_path}: notebook '{stem}' is not in lessons/ or exercises/")
        shipped = build.notebooks[stem]
        panel = lab_panel.lesson_panel(url, shipped.path, shipped.sha256, build.storage_name)
        return _insert_after_title(markdown, panel)
    if meta.get("playground"):
        return _insert_after_title(markdown, lab_panel.playground_panel(url))
    if meta.get("replay"):
        return markdown.replace(
            lab_panel.REPLAY_SLOT, lab_panel.replay_panel(url, build.storage_name).strip()
        )
    return markdown


def finish(build: SiteBuild, site_dir: Path, warn: Log) -> None:
    """Check the built pages, then copy the lab into the site."""
    for name in sorted(set(build.figures) - build.figures_shown):
        warn(
            f"figure '{name}' ({lesson_figures.SCRIPTS_DIR}/{name}.py) is on no page: "
            f"add a '{{{{ figure {name} }}}}' line to a lesson, or remove the script"
        )
    offenders = _pages_naming_a_cdn(site_dir)
    if offenders:
        raise SystemExit(f"built pages name a CDN (the site must be self-contained): {offenders}")
    if build.with_lab:
        shutil.copytree(LITE_BUILD, site_dir / lab_panel.LITE_DIR, dirs_exist_ok=True)
    source_maps.strip(site_dir)


def _pages_naming_a_cdn(site_dir: Path) -> list[str]:
    # Our pages and assets only: Material's bundle names unpkg for a ResizeObserver polyfill and
    # mermaid, fetched only by browsers lacking the one or pages using the other (neither here);
    # the browser tests check the requests pages really make.
    ours = [
        *site_dir.rglob("*.html"),
        *(site_dir / "javascripts").rglob("*"),
        *(site_dir / "stylesheets").rglob("*"),
    ]
    return [
        str(path.relative_to(site_dir))
        for path in ours
        if path.is_file() and CDN_PATTERN.search(path.read_text(errors="ignore"))
    ]


def _storage_name() -> str:
    config = json.loads((REPO / "playground/jupyter-lite.json").read_text())
    return config["jupyter-config-data"]["contentsStorageName"]


def _insert_after_title(markdown: str, html: str) -> str:
    lines = markdown.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join([*lines[: index + 1], html, *lines[index + 1 :]]) + "\n"
    return html + "\n" + markdown
