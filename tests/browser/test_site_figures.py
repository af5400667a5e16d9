"""Lesson figures: rendered at build time by CPython's matplotlib (hooks/site_build/lesson_figures.py) as
self-contained SVG, placed with real alt text and a caption, the same bytes on every build, and
a broken figure script stops the build with a message naming it."""

from __future__ import annotations

import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from site_browser import REPO

from hooks.site_build import lesson_figures

pytestmark = pytest.mark.browser

FIGURE = "checkpoint_interval"
LESSON_PAGE = "lessons/06-checkpoint-interval/index.html"
SVG_NS = "http://www.w3.org/2000/svg"
SITE_PYTHON = REPO / ".venv-site/bin/python"
# The lesson's inputs, restated so the optimum is checked against an independent computation.
FAILURE_RATE_PER_H, CHECKPOINT_COST_S = 0.020, 30


class _Figures(HTMLParser):
    """Each <figure class="fl-figure"> on a page: its <img> attributes and its caption text."""

    def __init__(self):
        super().__init__()
        self.found: list[dict] = []
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "figure" and "fl-figure" in (attrs.get("class") or ""):
            self.found.append({"img": None, "caption": ""})
        elif tag == "img" and self.found and self.found[-1]["img"] is None:
            self.found[-1]["img"] = attrs
        if tag == "figcaption":
            self._in_caption = True

    def handle_endtag(self, tag):
        if tag == "figcaption":
            self._in_caption = False

    def handle_data(self, data):
        if self._in_caption and self.found:
            self.found[-1]["caption"] += data


def _site_python() -> str:
    if not SITE_PYTHON.exists():
        pytest.skip("site tools not installed: run `make site`")
    return str(SITE_PYTHON)


def _figures_on(page_html: str) -> list[dict]:
    parser = _Figures()
    parser.feed(page_html)
    return parser.found


def test_the_widgets_lesson_shows_the_checkpoint_figure_with_alt_text_naming_the_optimum(site_dir):
    """A reader who cannot see the image still gets the answer: the alt text states Young's
    optimum, computed here on its own, and the caption sits under the image."""
    html = (site_dir / LESSON_PAGE).read_text()
    assert "{{ figure" not in html, "a figure placeholder was left unreplaced"
    [figure] = [f for f in _figures_on(html) if f["img"]["src"].endswith(f"/{FIGURE}.svg")]
    img = figure["img"]
    assert img["src"] == f"../../figures/{FIGURE}.svg"
    assert (site_dir / LESSON_PAGE).parent.joinpath(img["src"]).resolve().is_file()
    optimum_h = math.sqrt(2 * (CHECKPOINT_COST_S / 3600) / FAILURE_RATE_PER_H)
    alt = img["alt"]
    assert len(alt.split()) > 20, "alt text should be a description, not a label"
    assert f"optimum of {optimum_h:.2f} h" in alt
    assert "0.83 %" in alt and "1.00 %" in alt, "the 1-hour interval's two overheads"
    assert "Young" in figure["caption"] and f"{optimum_h:.2f} h" in figure["caption"]


def test_the_built_svg_is_well_formed_and_names_no_other_origin(site_dir):
    """The SVG parses as XML with an <svg> root, and the only URLs in it are XML namespace
    names, so showing the figure never reaches past the site."""
    svg = site_dir / "figures" / f"{FIGURE}.svg"
    root = ET.parse(svg).getroot()
    assert root.tag == f"{{{SVG_NS}}}svg"
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", svg.read_text()))
    assert urls <= {SVG_NS, "http://www.w3.org/1999/xlink"}, urls
    assert root.find(f".//{{{SVG_NS}}}text") is not None, "labels stay text (svg.fonttype none)"


def test_a_second_build_writes_the_same_svg_bytes(site_dir, tmp_path):
    """Building again (the pages-only build, which renders figures the same way) gives the
    figure byte for byte: no date, no random ids, nothing from the machine."""
    mkdocs = REPO / ".venv-site/bin/mkdocs"
    _site_python()
    env = dict(os.environ, FAULT_LINES_SKIP_LITE="1", NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    again = (tmp_path / "site/figures" / f"{FIGURE}.svg").read_bytes()
    assert again == (site_dir / "figures" / f"{FIGURE}.svg").read_bytes()


def test_a_figure_script_that_raises_stops_the_build_naming_the_figure_and_its_error(tmp_path):
    """A figure whose script fails is a build error that says which figure and why, not a
    missing image on the page."""
    script = tmp_path / "broken_curve.py"
    script.write_text("def figure():\n    raise ValueError('no failure rate given')\n")
    with pytest.raises(lesson_figures.FigureError) as caught:
        lesson_figures.render(script, python=_site_python())
    headline = str(caught.value).splitlines()[0]
    assert "figure 'broken_curve'" in headline
    assert headline.endswith("failed: ValueError: no failure rate given")


def test_a_figure_without_alt_text_is_refused(tmp_path):
    """Alt text is not optional: a script that returns an empty one fails like a broken one."""
    script = tmp_path / "silent.py"
    script.write_text(
        "from matplotlib.figure import Figure\ndef figure():\n    return Figure(), '  ', 'a caption'\n"
    )
    with pytest.raises(lesson_figures.FigureError, match="figure 'silent'.*empty alt text"):
        lesson_figures.render(script, python=_site_python())


def test_a_page_naming_an_unknown_figure_stops_the_build():
    """A typo in a page's figure line fails the build and names the page and the figure."""
    with pytest.raises(lesson_figures.FigureError, match="lessons/x.md: no figure 'chekpoint'"):
        lesson_figures.place("{{ figure chekpoint }}\n", "../../", {}, "lessons/x.md")
