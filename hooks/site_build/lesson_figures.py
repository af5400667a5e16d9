"""Figures on the lesson pages, rendered at build time, every build, with CPython's matplotlib.

Each lessons/figures/<name>.py defines `figure() -> (matplotlib Figure, alt text, caption)` and computes
its own numbers, so the words under a figure can never disagree with its curves. A page places
a figure with a line of its own:

    {{ figure checkpoint_interval }}

which becomes a <figure> with an <img> (the script's alt text) and a <figcaption>, pointing at
figures/<name>.svg in the built site. A script that raises, or gives no alt text, stops the
build with the figure's name and its error: a broken figure never ships as a missing image.

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


class FigureError(RuntimeError):
    """A figure could not be rendered or placed; the message names the figure and why."""


@dataclass(frozen=True)
class RenderedFigure:
    name: str
    svg: bytes
    alt: str
    caption: str
    width_px: int
    height_px: int

    @property
    def site_path(self) -> str:
        return f"{SITE_DIR}/{self.name}.svg"


def scripts(repo: Path = REPO) -> list[Path]:
    return sorted((repo / SCRIPTS_DIR).glob("*.py"))


def off_site_urls(svg_text: str) -> list[str]:
    return sorted({url for url in URL.findall(svg_text) if url not in SVG_NAMESPACES})


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "(no error output)"


def render(script: Path, python: str = sys.executable, timeout: float = 120) -> RenderedFigure:
    """Render one figure script to SVG in a child CPython; raise FigureError if it fails."""
    name = script.stem
    shown = script.relative_to(REPO) if script.is_relative_to(REPO) else script
    label = f"figure '{name}' ({shown})"
    # PYTHONPATH: a figure may compute its numbers with miniray, as the lessons do.
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.svg"
        try:
            result = subprocess.run(
                [python, str(RUNNER), str(script), str(out)],
                cwd=REPO,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise FigureError(f"{label} did not finish within {timeout:.0f} s") from None
        if result.returncode:
            raise FigureError(f"{label} failed: {_last_line(result.stderr)}\n\n{result.stderr}")
        meta = json.loads(result.stdout)
        svg = out.read_bytes()
    foreign = off_site_urls(svg.decode("utf-8"))
    if foreign:
        raise FigureError(f"{label} names other origins (the site serves every byte): {foreign}")
    return RenderedFigure(
        name=name,
        svg=svg,
        alt=meta["alt"].strip(),
        caption=meta["caption"].strip(),
        width_px=round(meta["width_in"] * CSS_PX_PER_INCH),
        height_px=round(meta["height_in"] * CSS_PX_PER_INCH),
    )


def render_all(repo: Path = REPO, python: str = sys.executable) -> dict[str, RenderedFigure]:
    return {script.stem: render(script, python) for script in scripts(repo)}


def figure_html(figure: RenderedFigure, root_prefix: str) -> str:
    """The <figure> for a page whose path to the site root is root_prefix (e.g. '../../')."""
    # One block with no blank line, so Markdown passes it through as raw HTML. The max-width
    # wraps the caption at the image's width instead of letting it widen the figure.
    return (
        f'<figure class="fl-figure" id="figure-{figure.name}" '
        f'style="max-width: min(100%, {figure.width_px}px)">\n'
        f'<img src="{root_prefix}{figure.site_path}" alt="{escape(figure.alt, quote=True)}" '
        f'width="{figure.width_px}" height="{figure.height_px}" loading="lazy">\n'
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
