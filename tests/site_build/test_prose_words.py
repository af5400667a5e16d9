"""One story a lesson, and lean enough to finish: the lessons average at most 1,500 words of prose.

Prose is what the digit check reads (hooks/site_build/prose_digits.prose_lines): no code, no
tables, no front matter; a placeholder counts as one word. The primer is not a lesson."""

from __future__ import annotations

import re
from pathlib import Path

from hooks.site_build import prose_digits

REPO = Path(__file__).resolve().parents[2]
LESSONS = sorted((REPO / "docs/lessons").glob("[01][0-9]_*.md"))[1:]  # 01..12, not the primer
AVERAGE_AT_MOST = 1500
WORD = re.compile(r"[A-Za-zÀ-ÿ0-9][\w'’-]*")


def prose_words(markdown: str) -> int:
    marked = prose_digits.PLACEHOLDER.sub(" N ", markdown)  # a placeholder reads as one word
    return sum(len(WORD.findall(text)) for _, text in prose_digits.prose_lines(marked))


def test_there_are_twelve_lessons():
    assert [p.stem[:2] for p in LESSONS] == [f"{n:02d}" for n in range(1, 13)]


def test_the_average_lesson_is_at_most_1500_words_of_prose():
    words = {p.stem: prose_words(p.read_text(encoding="utf-8")) for p in LESSONS}
    average = sum(words.values()) / len(words)
    print(words, f"average {average:.0f}")
    assert average <= AVERAGE_AT_MOST, f"average {average:.0f} words of prose: {words}"
