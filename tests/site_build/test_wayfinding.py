"""Wayfinding (hooks/site_build/wayfinding.py): "Previous: …" and "Next: …" on every lesson and
exercise page, in the order of mkdocs.yml's Lessons section; an exercise names its lesson."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from hooks.site_build import exercise_pages, wayfinding

REPO = Path(__file__).resolve().parents[2]


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # mkdocs.yml's !ENV
NAV = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=_Loader)["nav"]
ORDER = wayfinding.lesson_order(NAV)
LINKS = re.compile(r"\[(Previous|Next): ([^\]]+)\]\(([^)]+)\)")


def test_the_order_is_the_primer_then_every_lesson_in_number_order():
    assert [s.path for s in ORDER][0] == "lessons/00_ray_in_one_page.md"
    assert [s.path for s in ORDER][1:] == [
        f"lessons/{p.stem}.md" for p in sorted((REPO / "lessons").glob("[01]*.py"))
    ]


def test_each_lesson_links_its_neighbours_and_the_last_one_the_exercises():
    for at, stop in enumerate(ORDER):
        found = LINKS.findall(wayfinding.for_lesson(ORDER, stop.path))
        expected = ([("Previous", ORDER[at - 1].title, ORDER[at - 1].path.split("/")[1])] if at else []) + [
            ("Next", ORDER[at + 1].title, ORDER[at + 1].path.split("/")[1])
            if at + 1 < len(ORDER)
            else ("Next", "All exercises", "../exercises/index.md")
        ]
        assert found == expected, stop.path


def test_an_exercise_names_its_lesson_and_points_to_the_next():
    for ex in exercise_pages.exercises(REPO):
        page = exercise_pages._exercise_page(ex, ORDER)
        lesson = wayfinding.lesson_of(ORDER, ex.lesson)
        assert lesson is not None, f"{ex.id}: exercise.toml names lesson {ex.lesson!r}, which the nav lacks"
        assert f"**Lesson:** [{lesson.title}](../lessons/{ex.lesson}.md)" in page
        kinds = [kind for kind, _, _ in LINKS.findall(page)]
        assert kinds == ["Previous", "Next"], ex.id
        assert "**Next step:**" in ex.statement, f"{ex.id}'s statement says no next step"
