"""Lesson figures: rendered at build time by CPython's matplotlib (hooks/site_build/lesson_figures.py) as
self-contained SVG, once per colour scheme, placed with real alt text and a caption on every
lesson page, drawn in colours that reach AA contrast on their scheme's page, the same bytes on
every build, and a broken figure script stops the build with a message naming it."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from site_browser import REPO

from faultlines.figures.ink import AA_TEXT, INKS, contrast
from hooks.site_build import lesson_figures

pytestmark = pytest.mark.browser

FIGURE = "06_checkpoint_interval"
LESSON_PAGE = "lessons/06_checkpoint_interval/index.html"
SVG_NS = "http://www.w3.org/2000/svg"
SITE_PYTHON = REPO / ".venv-site/bin/python"
# The lesson's inputs, restated so the optimum is checked against an independent computation.
FAILURE_RATE_PER_H, CHECKPOINT_COST_S = 0.020, 30


class _Figures(HTMLParser):
    """Each <figure class="fl-figure"> on a page: its <img>s' attributes and its caption text."""

    def __init__(self):
        super().__init__()
        self.found: list[dict] = []
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "figure" and "fl-figure" in (attrs.get("class") or ""):
            self.found.append({"img": None, "imgs": [], "caption": ""})
        elif tag == "img" and self.found:
            self.found[-1]["imgs"].append(attrs)
            if self.found[-1]["img"] is None:
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
    [figure] = [f for f in _figures_on(html) if f"/{FIGURE}-light.svg" in f["img"]["src"]]
    img = figure["img"]
    assert img["src"] == f"../../figures/{FIGURE}-light.svg#only-light"
    assert (site_dir / LESSON_PAGE).parent.joinpath(img["src"].split("#")[0]).resolve().is_file()
    optimum_h = math.sqrt(2 * (CHECKPOINT_COST_S / 3600) / FAILURE_RATE_PER_H)
    alt = img["alt"]
    assert len(alt.split()) > 20, "alt text should be a description, not a label"
    assert f"optimum of {optimum_h:.2f} h" in alt
    assert "0.83 %" in alt and "1.00 %" in alt, "the 1-hour interval's two overheads"
    assert "Young" in figure["caption"] and f"{optimum_h:.2f} h" in figure["caption"]


LESSON_PAGES = [
    f"lessons/{p.stem}/index.html" for p in sorted((REPO / "docs/lessons").glob("[0-9][0-9]_*.md"))
]


@pytest.mark.parametrize("page", LESSON_PAGES)
def test_every_lesson_page_shows_a_figure_drawn_for_each_scheme_with_alt_text(site_dir, page):
    """Each lesson has at least one build-time figure: a light and a dark image, each marked
    for Material to show in its scheme only, with the same real alt text, and a caption."""
    figures = _figures_on((site_dir / page).read_text())
    assert figures, f"{page} shows no build-time figure"
    for figure in figures:
        light, dark = figure["imgs"]
        assert light["src"].endswith("-light.svg#only-light") and dark["src"].endswith("-dark.svg#only-dark")
        for img in (light, dark):
            assert (site_dir / page).parent.joinpath(img["src"].split("#")[0]).resolve().is_file()
            assert float(img["data-smallest-text-px"]) >= 8
        assert light["alt"] == dark["alt"] and len(light["alt"].split()) >= 20
        assert figure["caption"].strip()


def _svg_background(root: ET.Element) -> str:
    """The fill of the figure's own background patch, the first path drawn."""
    patch = root.find(f".//{{{SVG_NS}}}g[@id='patch_1']/{{{SVG_NS}}}path")
    assert patch is not None
    return re.search(r"fill: (#[0-9a-f]{6})", patch.get("style", "")).group(1)


@pytest.mark.parametrize("ink", INKS, ids=lambda ink: ink.scheme)
def test_every_figure_draws_on_its_scheme_s_page_with_aa_text(site_dir, ink):
    """Each figure's SVG for a scheme sits on that scheme's page colour, and every text in it
    reaches 4.5:1 against it (measured on the built files, not the palette). The one exception
    is text in the page's own colour, which figures draw only inside a bar or cell filled with
    one of the ink's series colours, and those reach 4.5:1 against the page colour both ways."""
    svgs = sorted((site_dir / "figures").glob(f"*-{ink.scheme}.svg"))
    assert len(svgs) == len(lesson_figures.scripts(REPO))
    for svg in svgs:
        root = ET.parse(svg).getroot()
        assert _svg_background(root) == ink.background, svg.name
        fills = set()
        for text in root.iter(f"{{{SVG_NS}}}text"):
            fills.add(re.search(r"fill: (#[0-9a-f]{6})", text.get("style", "")).group(1))
        assert fills, f"{svg.name}: no text"
        on_page = fills - {ink.background}
        low = {fill: round(contrast(fill, ink.background), 2) for fill in on_page}
        assert on_page and all(ratio >= AA_TEXT for ratio in low.values()), (svg.name, low)


@pytest.mark.parametrize("scheme", lesson_figures.SCHEMES)
def test_the_built_svg_is_well_formed_and_names_no_other_origin(site_dir, scheme):
    """The SVG parses as XML with an <svg> root, and the only URLs in it are XML namespace
    names, so showing the figure never reaches past the site."""
    svg = site_dir / "figures" / f"{FIGURE}-{scheme}.svg"
    root = ET.parse(svg).getroot()
    assert root.tag == f"{{{SVG_NS}}}svg"
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", svg.read_text()))
    assert urls <= {SVG_NS, "http://www.w3.org/1999/xlink"}, urls
    assert root.find(f".//{{{SVG_NS}}}text") is not None, "labels stay text (svg.fonttype none)"


def test_a_second_build_writes_the_same_svg_bytes(site_dir, quick_site):
    """Building again (the pages-only build, which renders figures the same way) gives the
    figure byte for byte: no date, no random ids, nothing from the machine."""
    for scheme in lesson_figures.SCHEMES:
        again = (quick_site / "figures" / f"{FIGURE}-{scheme}.svg").read_bytes()
        assert again == (site_dir / "figures" / f"{FIGURE}-{scheme}.svg").read_bytes()


def test_a_figure_script_that_raises_stops_the_build_naming_the_figure_and_its_error(tmp_path):
    """A figure whose script fails is a build error that says which figure and why, not a
    missing image on the page."""
    script = tmp_path / "broken_curve.py"
    script.write_text(
        "def data():\n    raise ValueError('no failure rate given')\n"
        "def describe(d):\n    return 'alt', 'caption'\n"
        "def draw(d, ink):\n    return None\n"
    )
    with pytest.raises(lesson_figures.FigureError) as caught:
        lesson_figures.render(script, python=_site_python())
    headline = str(caught.value).splitlines()[0]
    assert "figure 'broken_curve'" in headline
    assert headline.endswith("failed: ValueError: no failure rate given")


def test_one_broken_figure_among_several_is_the_one_the_build_names(tmp_path):
    """Figures render several to a child: the good ones still render, and the error names the
    broken one, not its neighbours."""
    folder = tmp_path / lesson_figures.SCRIPTS_DIR
    folder.mkdir(parents=True)
    good = (
        "from matplotlib.figure import Figure\n"
        "def data():\n    return [1, 2]\n"
        "def describe(d):\n    return 'a line through ' + str(d), 'a caption'\n"
        "def draw(d, ink):\n"
        "    fig = Figure(figsize=(5, 3))\n    fig.subplots().plot(d, color=ink.blue)\n    return fig\n"
    )
    for name in ("a_good", "b_good", "c_good"):
        (folder / f"{name}.py").write_text(good)
    (folder / "b_broken.py").write_text(good.replace("return [1, 2]", "raise KeyError('stage 7')"))
    with pytest.raises(lesson_figures.FigureError) as caught:
        lesson_figures.render_all(tmp_path, python=_site_python())
    assert caught.value.name == "b_broken"
    assert str(caught.value).splitlines()[0].endswith("failed: KeyError: 'stage 7'")
    (folder / "b_broken.py").unlink()
    rendered = lesson_figures.render_all(tmp_path, python=_site_python())
    assert sorted(rendered) == ["a_good", "b_good", "c_good"]
    assert all(set(f.svgs) == set(lesson_figures.SCHEMES) for f in rendered.values())
    assert rendered["a_good"].svgs["light"] != rendered["a_good"].svgs["dark"]


def test_a_figure_without_alt_text_is_refused(tmp_path):
    """Alt text is not optional: a script that returns an empty one fails like a broken one."""
    script = tmp_path / "silent.py"
    script.write_text(
        "from matplotlib.figure import Figure\n"
        "def data():\n    return 1\n"
        "def describe(d):\n    return '  ', 'a caption'\n"
        "def draw(d, ink):\n    return Figure()\n"
    )
    with pytest.raises(lesson_figures.FigureError, match="figure 'silent'.*empty alt text"):
        lesson_figures.render(script, python=_site_python())


def test_a_page_naming_an_unknown_figure_stops_the_build():
    """A typo in a page's figure line fails the build and names the page and the figure."""
    with pytest.raises(lesson_figures.FigureError, match="lessons/x.md: no figure 'chekpoint'"):
        lesson_figures.place("{{ figure chekpoint }}\n", "../../", {}, "lessons/x.md")
