"""The build-time number placeholders: filled from the lesson's code, and loud when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.site_build import lesson_numbers


def _repo(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / lesson_numbers.NUMBERS_DIR
    folder.mkdir(parents=True)
    (folder / "demo.py").write_text(body)
    return tmp_path


def test_placeholder_is_filled_from_the_module(tmp_path):
    repo = _repo(
        tmp_path, "import miniray\ndef numbers():\n    return {'answer': f'{6 * 7}', 'ratio': 0.5}\n"
    )
    numbers = lesson_numbers.Numbers(repo)
    page = "It is {{ num demo.answer }} and {{ num demo.ratio }}; {{ figure x }} stays."
    assert numbers.fill(page, "p.md") == "It is 42 and 0.5; {{ figure x }} stays."


def test_unknown_key_names_page_module_and_key(tmp_path):
    numbers = lesson_numbers.Numbers(_repo(tmp_path, "def numbers():\n    return {'a': '1'}\n"))
    with pytest.raises(
        lesson_numbers.NumbersError, match=r"p\.md: .*demo\.py has no number 'b' \(it has: a\)"
    ):
        numbers.fill("{{ num demo.b }}", "p.md")


def test_missing_module_and_failing_module(tmp_path):
    numbers = lesson_numbers.Numbers(_repo(tmp_path, "def numbers():\n    raise ValueError('boom')\n"))
    with pytest.raises(lesson_numbers.NumbersError, match="no numbers module"):
        numbers.fill("{{ num nope.a }}", "p.md")
    with pytest.raises(lesson_numbers.NumbersError, match="ValueError: boom"):
        numbers.fill("{{ num demo.a }}", "p.md")
