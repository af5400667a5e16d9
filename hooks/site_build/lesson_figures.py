"""Figures on the lesson pages, rendered at build time, every build, with CPython's matplotlib.

Each lessons/figures/<NN>_<name>.py (NN: the lesson that shows it) defines `data()` (what it plots, computed by the lesson's own
code), `describe(data) -> (alt text, caption)` and `draw(data, ink) -> Figure` (see
figure_runner.py), so the words under a figure can never disagree with its curves. A page places
a figure with a line of its own:

    {{ figure 06_checkpoint_interval }}

which becomes a <figure> with two <img> (the script's alt text) and a <figcaption>: one drawn for
the light scheme, figures/<name>-light.svg#only-light, and one for the dark scheme,
figures/<name>-dark.svg#only-dark. Material shows only the image whose fragment matches the
reader's scheme, so a figure is drawn in the page's own colours rather than inverted. A script
that raises, or gives no alt text, stops the build with the figure's name and its error: a
broken figure never ships as a missing image.

Nothing is cached: every build renders every figure (in parallel, one child per figure), so a
figure can never lag behind the code it plots.

Stdlib only: the tests import this from the dev venv, which has no matplotlib; rendering runs
figure_runner.py in a child CPython (the site venv's, under MkDocs).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html import escape
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "figure_runner.py"
SCRIPTS_DIR = "lessons/figures"  # with the lessons they illustrate; outside docs/ so the .py never ships
SITE_DIR = "figures"  # in the built site
PLACEHOLDER = re.compile(r"^\{\{ figure ([\w-]+) \}\}[ \t]*$", re.MULTILINE)
# Namespace names, not fetched: the only URLs an SVG of ours may carry.
SVG_NAMESPACES = frozenset({"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"})
URL = re.compile(r"https?://[^\s\"'<>)]+")
CSS_PX_PER_INCH = 96
# The smallest text a figure may draw, in CSS px at its drawn size (WCAG has no minimum; issue
# 12 asked for 8 px on screen). A figure whose column shows its text under 11 px (a phone's)
# offers an enlarged view with its smallest text at 12 px (docs/javascripts/figures.js).
MIN_TEXT_PX = 8.0
FONT_SIZE = re.compile(r"font-size: ?([0-9.]+)px")
VIEWBOX = re.compile(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')
SCHEMES = ("light", "dark")  # faultlines.figures.ink.INKS, in the same order


class FigureError(RuntimeError):
    """A figure could not be rendered or placed; the message names the figure and why."""

    def __init__(self, message: str, name: str = ""):
        super().__init__(message)
        self.name = name  # the figure's name, when the error is about one figure


@dataclass(frozen=True)
class RenderedFigure:
    name: str
    svgs: dict[str, bytes]  # by scheme: "light", "dark"
    alt: str
    caption: str
    width_px: int
    height_px: int
    smallest_text_px: float  # the smallest text, in CSS px, with the figure at width_px

    def site_path(self, scheme: str) -> str:
        return f"{SITE_DIR}/{self.name}-{scheme}.svg"


def scripts(repo: Path = REPO) -> list[Path]:
    return sorted((repo / SCRIPTS_DIR).glob("*.py"))


def off_site_urls(svg_text: str) -> list[str]:
    return sorted({url for url in URL.findall(svg_text) if url not in SVG_NAMESPACES})


def smallest_text(svg_text: str, width_px: float) -> float:
    """The smallest font size in an SVG of ours, in CSS px when it is shown width_px wide."""
    sizes = [float(size) for size in FONT_SIZE.findall(svg_text)]
    viewbox = VIEWBOX.search(svg_text)
    if not sizes or viewbox is None:
        raise ValueError("the SVG has no text sizes or no viewBox")
    return min(sizes) * width_px / float(viewbox.group(1))


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "(no error output)"


def render(script: Path, python: str = sys.executable, timeout: float = 120) -> RenderedFigure:
    """Render one figure script to SVG, once per scheme, in a child CPython; raise FigureError if it fails."""
    [result] = _render_group([script], python, timeout)
    if isinstance(result, FigureError):
        raise result
    return result


def render_all(repo: Path = REPO, python: str = sys.executable) -> dict[str, RenderedFigure]:
    """Every figure, in as many children as there are CPUs, each rendering its share in turn.
    The first failing script, in name order, raises."""
    found = scripts(repo)
    children = max(1, min(os.cpu_count() or 2, len(found)))
    groups = [found[i::children] for i in range(children)]
    with ThreadPoolExecutor(max_workers=children) as pool:
        done = list(pool.map(lambda group: _render_group(group, python, 120 * len(group)), groups))
    by_name = {result.name: result for group in done for result in group}
    rendered: dict[str, RenderedFigure] = {}
    for script in found:
        result = by_name[script.stem]
        if isinstance(result, FigureError):
            raise result
        rendered[script.stem] = result
    return rendered


def _label(script: Path) -> str:
    shown = script.relative_to(REPO) if script.is_relative_to(REPO) else script
    return f"figure '{script.stem}' ({shown})"


def _render_group(group: list[Path], python: str, timeout: float) -> list[RenderedFigure | FigureError]:
    """Render a group of scripts in one child; each result is the figure or its error."""
    # PYTHONPATH: a figure computes its numbers with miniray and faultlines, as the lessons do.
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory() as tmp:
        try:
            result = subprocess.run(
                [python, str(RUNNER), tmp, *map(str, group)],
                cwd=REPO,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return [FigureError(f"{_label(s)} did not finish within {timeout:.0f} s", s.stem) for s in group]
        if result.returncode:
            return [
                FigureError(f"{_label(s)} failed: {_last_line(result.stderr)}\n\n{result.stderr}", s.stem)
                for s in group
            ]
        metas = json.loads(result.stdout)
        return [_read(script, metas[script.stem], Path(tmp)) for script in group]


def _read(script: Path, meta: dict, out_dir: Path) -> RenderedFigure | FigureError:
    name, label = script.stem, _label(script)
    if "error" in meta:
        return FigureError(f"{label} failed: {_last_line(meta['error'])}\n\n{meta['error']}", name)
    svgs = {scheme: (out_dir / f"{name}-{scheme}.svg").read_bytes() for scheme in SCHEMES}
    for scheme, svg in svgs.items():
        foreign = off_site_urls(svg.decode("utf-8"))
        if foreign:
            return FigureError(
                f"{label} ({scheme}) names other origins (the site serves every byte): {foreign}", name
            )
    width_px = round(meta["width_in"] * CSS_PX_PER_INCH)
    smallest = min(smallest_text(svg.decode("utf-8"), width_px) for svg in svgs.values())
    if smallest < MIN_TEXT_PX:
        return FigureError(
            f"{label} draws text at {smallest:.1f} px, under {MIN_TEXT_PX:g} px even at full size: "
            f"use a larger font or a wider figure",
            name,
        )
    return RenderedFigure(
        name=name,
        svgs=svgs,
        alt=meta["alt"].strip(),
        caption=meta["caption"].strip(),
        width_px=width_px,
        height_px=round(meta["height_in"] * CSS_PX_PER_INCH),
        smallest_text_px=round(smallest, 2),
    )


def figure_html(figure: RenderedFigure, root_prefix: str) -> str:
    """The <figure> for a page whose path to the site root is root_prefix (e.g. '../../')."""
    # One block with no blank line, so Markdown passes it through as raw HTML. The max-width
    # wraps the caption at the image's width instead of letting it widen the figure. Both
    # images carry the alt text; the other scheme's is display:none, so it is never read out.
    images = "".join(
        f'<img src="{root_prefix}{figure.site_path(scheme)}#only-{scheme}" '
        f'alt="{escape(figure.alt, quote=True)}" '
        f'width="{figure.width_px}" height="{figure.height_px}" '
        f'data-smallest-text-px="{figure.smallest_text_px:g}" loading="lazy">\n'
        for scheme in SCHEMES
    )
    return (
        f'<figure class="fl-figure" id="figure-{figure.name}" '
        f'style="max-width: min(100%, {figure.width_px}px)">\n'
        f"{images}"
        f"<figcaption>{escape(figure.caption, quote=False)}</figcaption>\n"
        f"</figure>"
    )


def place(
    markdown: str, root_prefix: str, rendered: dict[str, RenderedFigure], where: str
) -> tuple[str, set[str]]:
    """Replace each `{{ figure NAME }}` line; return the new markdown and the names it used."""
    used: set[str] = set()

    def one(match: re.Match) -> str:
        name = match.group(1)
        if name not in rendered:
            known = ", ".join(sorted(rendered)) or "none"
            raise FigureError(f"{where}: no figure '{name}' in {SCRIPTS_DIR}/ (there are: {known})")
        used.add(name)
        return figure_html(rendered[name], root_prefix)

    return PLACEHOLDER.sub(one, markdown), used
