"""Every number a page takes from a lesson's code is the one that code computes, in the built site.

Each `{{ num module.key }}` in docs/ is recomputed here by running lessons/numbers/<module>.py
afresh (hooks/site_build/lesson_numbers.py, the build's own runner), then looked for in the page's built
HTML (site/) together with the plain words around it in the Markdown, so a stale build, a value
in the wrong place or a changed model fails. No built page may keep a placeholder unfilled.
"""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from lesson_files import REPO, lesson_numbers

DOCS = REPO / "docs"
SITE = REPO / "site"
ANY_PLACEHOLDER = re.compile(r"\{\{\s*(num|figure)\b")
# Markdown punctuation that never reaches the page's text as typed: context stops at it.
MARKUP = set('`*_[]()|<>{}"#')
CONTEXT_CHARS = 24


def pages_with_numbers() -> list[Path]:
    return sorted(
        p for p in DOCS.rglob("*.md") if lesson_numbers.PLACEHOLDER.search(p.read_text(encoding="utf-8"))
    )


def built_page(page: Path) -> Path:
    rel = page.relative_to(DOCS).with_suffix("")
    return SITE / ("index.html" if rel.name == "index" and rel.parent == Path(".") else rel / "index.html")


@pytest.fixture(scope="session")
def numbers() -> lesson_numbers.Numbers:
    return lesson_numbers.Numbers(REPO)


def _plain_side(text: str, before: bool) -> str:
    """The run of plain words next to a placeholder, up to markup or CONTEXT_CHARS characters."""
    chars = reversed(text) if before else iter(text)
    kept = []
    for ch in chars:
        if ch in MARKUP or ch == "\n" or len(kept) >= CONTEXT_CHARS:
            break
        kept.append(ch)
    side = "".join(reversed(kept) if before else kept)
    words = side.split(" ")
    # Drop a word cut in half by the character limit.
    if len(kept) >= CONTEXT_CHARS and len(words) > 1:
        words = words[1:] if before else words[:-1]
    return " ".join(words)


def _norm(text: str) -> str:
    # A value may carry inline Markdown (`code`, *emphasis*) that the page renders away: those
    # marks are dropped on both sides, and runs of whitespace compared as one space.
    return " ".join(text.replace("`", "").replace("*", "").split())


class _Text(HTMLParser):
    """The text a reader sees (and a screen reader reads), without scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def page_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return html.unescape("".join(parser.parts))


def expectations(markdown: str, numbers: lesson_numbers.Numbers, where: str) -> list[tuple[str, str]]:
    """(placeholder, text the page must show) for each placeholder, with the plain words around it."""
    found = []
    filled = numbers.fill(markdown, where)  # raises with page, module and key if one is unknown
    assert filled is not None
    for match in lesson_numbers.PLACEHOLDER.finditer(markdown):
        module, key = match.groups()
        value = numbers.module(module)[key]
        line_start = markdown.rfind("\n", 0, match.start()) + 1
        line_end = markdown.find("\n", match.end())
        before = numbers.fill(markdown[line_start : match.start()], where)
        after = numbers.fill(markdown[match.end() : line_end if line_end >= 0 else None], where)
        if value.lstrip().startswith("|"):  # a Markdown table: its cells' text, in order
            cells = [
                cell.strip()
                for row in value.splitlines()
                if not set(row) <= set("|-: ")
                for cell in row.strip().strip("|").split("|")
            ]
            found.append((match.group(0), _norm(" ".join(cell for cell in cells if cell))))
        elif "\n" in value:  # a whole block (a log, lanes): every line of it, as one run of text
            found.append((match.group(0), _norm(value)))
        else:
            found.append(
                (match.group(0), _norm(_plain_side(before, True) + value + _plain_side(after, False)))
            )
    return found


def test_pages_use_numbers():
    assert pages_with_numbers(), "no page takes a number from a lesson's code"


@pytest.mark.parametrize("page", pages_with_numbers(), ids=lambda p: str(p.relative_to(DOCS)))
def test_every_placeholder_names_a_computed_number(page: Path, numbers: lesson_numbers.Numbers):
    expected = expectations(page.read_text(encoding="utf-8"), numbers, str(page.relative_to(REPO)))
    assert expected and all(text for _, text in expected)


def _site_built() -> None:
    if not (SITE / "index.html").is_file():
        if os.environ.get("CI"):
            pytest.fail("site/ is not built (CI builds it with `make test`)")
        pytest.skip("site/ is not built: run `make site` (or the quick pages-only build)")


@pytest.mark.parametrize("page", pages_with_numbers(), ids=lambda p: str(p.relative_to(DOCS)))
def test_built_page_shows_what_the_code_computes(page: Path, numbers: lesson_numbers.Numbers):
    _site_built()
    built = built_page(page)
    assert built.is_file(), f"{page.relative_to(REPO)} was not built to {built.relative_to(REPO)}"
    shown = _norm(page_text(built))
    missing = [
        f"{placeholder} -> {text!r}"
        for placeholder, text in expectations(page.read_text(encoding="utf-8"), numbers, str(page))
        if text not in shown
    ]
    assert not missing, (
        f"{built.relative_to(REPO)} does not show what the lesson code computes now "
        f"(rebuild the site, or fix the page):\n" + "\n".join(missing)
    )


def test_no_built_page_keeps_a_placeholder():
    _site_built()
    left = [
        str(path.relative_to(SITE))
        for path in sorted(SITE.rglob("*.html"))
        if not path.is_relative_to(SITE / "lite") and ANY_PLACEHOLDER.search(page_text(path))
    ]
    assert not left, f"pages still showing a {{{{ num }}}} or {{{{ figure }}}} placeholder: {left}"
