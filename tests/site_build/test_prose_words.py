"""One story a lesson, and lean enough to finish: every lesson page has at most 1,500 words of prose.

Prose is what the digit check reads (hooks/site_build/prose_digits.prose_lines): no code, no
tables, no front matter; a placeholder counts as one word. The pages counted are the ones
mkdocs.yml's Lessons section lists (hooks/site_build/wayfinding.lesson_order), so a lesson added
to the nav is held to the same budget; the primer, "Ray in one page", is a glossary, not a lesson.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from hooks.site_build import prose_digits, wayfinding

REPO = Path(__file__).resolve().parents[2]
PRIMER = "lessons/00_ray_in_one_page.md"
AT_MOST = 1500
WORD = re.compile(r"[A-Za-zÀ-ÿ0-9][\w'’-]*")


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # mkdocs.yml's !ENV
NAV = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)["nav"]
LESSONS = [stop.path for stop in wayfinding.lesson_order(NAV) if stop.path != PRIMER]


def prose_words(markdown: str) -> int:
    marked = prose_digits.PLACEHOLDER.sub(" N ", markdown)  # a placeholder reads as one word
    return sum(len(WORD.findall(text)) for _, text in prose_digits.prose_lines(marked))


def test_the_nav_lists_the_lessons_and_each_page_exists():
    assert len(LESSONS) >= 12, LESSONS
    assert all((REPO / "docs" / path).is_file() for path in LESSONS), LESSONS


@pytest.mark.parametrize("path", LESSONS)
def test_a_lesson_page_has_at_most_1500_words_of_prose(path: str):
    words = prose_words((REPO / "docs" / path).read_text(encoding="utf-8"))
    print(f"{path}: {words} words of prose")
    assert words <= AT_MOST, (
        f"{path}: {words} words of prose, more than {AT_MOST}: cut, or move reference material out"
    )


def test_code_tables_and_placeholders_are_not_counted():
    page = "Two words.\n\n```python\nnot counted at all\n```\n\n| a | b |\n|---|---|\n{{ num 01_x.y }} here\n"
    assert prose_words(page) == 4
