"""A learner page names its sources and never speaks of the build.

Learner pages: the lessons and the reference pages, the home and playground pages, the exercise
statements, and the Markdown cells of the lesson notebooks (docs/design/ is for maintainers).
None may speak of the build, its machine or its tests, or cite a source without naming it
("some course material", "the case study"); a write-up the lessons draw on is named by its title
(docs/reference/sources.md lists them), and that title links to its entry or its address.
"""

from __future__ import annotations

import re
from pathlib import Path

import jupytext
import pytest

from hooks.site_build import prose_digits

REPO = Path(__file__).resolve().parents[2]
PAGES = [
    *sorted((REPO / "docs/lessons").glob("*.md")),
    *sorted((REPO / "docs/reference").glob("*.md")),
    REPO / "docs/index.md",
    REPO / "docs/playground.md",
    *sorted((REPO / "exercises").glob("*/statement.md")),
]
NOTEBOOKS = sorted((REPO / "lessons").glob("[01][0-9]_*.py"))
# Phrases that speak of the build, its machine or its tests, or of a source without naming it.
FORBIDDEN = [
    r"produced by the build",
    r"\bthe build\b",
    r"build machine",
    r"two-core",
    r"test suite",
    r"as it runs in the tests?",
    r"course material",
    r"the notes this course draws on",
    r"this course draws on",
    r"\bthe case study\b",
    r"case study's",
    r"playground outline",
    r"\bseed 00\d",
    r"seed documents?",
    r"on this machine",
    r"bigger than this machine",
    r"site was built",
    r"when the site is built",
]
PATTERN = re.compile("|".join(f"(?:{p})" for p in FORBIDDEN), re.IGNORECASE)
# The write-ups the lessons draw on, by the title a page names them with.
TITLES = [
    "Chapter 05",
    "Debugging, Observability, and Failure Semantics",
    "Who Runs What, and What Happens When a Worker Goes Quiet",
    "Recovery Is Not Progress",
    "When a restart runs, what it waits for, and how a shard re-enters",
]
LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)", re.DOTALL)


def _notebook_markdown(path: Path) -> str:
    notebook = jupytext.read(path)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def _text(path: Path) -> str:
    return _notebook_markdown(path) if path.suffix == ".py" else path.read_text(encoding="utf-8")


def _prose(text: str) -> str:
    """The text without fenced code (a quoted log may say anything)."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("path", PAGES + NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_a_learner_page_never_speaks_of_the_build_or_an_unnamed_source(path: Path):
    found = [m.group(0) for m in PATTERN.finditer(_prose(_text(path)))]
    assert not found, f"{path.relative_to(REPO)} says {found}: name the source by its title, or cut it"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_write_up_named_on_a_page_is_linked_at_its_first_mention(path: Path):
    prose = _prose(prose_digits.fill_constants(path.read_text(encoding="utf-8")))
    links = [(m.start(), m.end(), m.group(2)) for m in LINK.finditer(prose)]
    for title in TITLES:
        at = prose.find(title)
        if at < 0 or path.name == "sources.md":
            continue
        link = next((lk for lk in links if lk[0] <= at < lk[1]), None)
        assert link is not None, f"{path.relative_to(REPO)}: '{title}' first appears without a link"
        assert "sources.md#" in link[2] or link[2].startswith("https://"), link


def test_the_sources_page_lists_every_title():
    page = (REPO / "docs/reference/sources.md").read_text(encoding="utf-8")
    assert all(title in page for title in TITLES)


@pytest.mark.parametrize(
    "line",
    [
        "The event log, produced by the build:",
        "Ray 2.60 on this course's two-core build machine ran the loop",
        "The course's own test, as it runs in the test suite:",
        "Some course material says so.",
        "A worked example from the notes this course draws on.",
        "The case study watched the counter.",
    ],
)
def test_the_phrases_the_rule_is_for_are_caught(line: str):
    assert PATTERN.search(line), line
