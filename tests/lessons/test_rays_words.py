"""Every lesson quotes real Ray 2.60's own output beside miniray's for the same program.

A lesson page places `{{ num NN_slug.ray_says }}` and `{{ num NN_slug.miniray_says }}` in `text`
fences; its numbers module fills them with conformance.recorded_view.compare(..., said=...),
Ray's side from tests/conformance/recorded/ray-2.60.0.json. These tests hold that for every
lesson the nav lists, and that every line a page quotes as Ray's is a line of the recording
(wrapped for the page's width, or elided with a "..." line of its own), so the quote cannot drift
from what Ray printed, and that the quote names no machine (pids, addresses and paths normalised).
"""

from __future__ import annotations

import re
import runpy
from functools import cache
from pathlib import Path

import pytest
import yaml

from conformance.observations import load_recorded
from hooks.site_build import wayfinding

REPO = Path(__file__).resolve().parents[2]
PRIMER = "lessons/00_ray_in_one_page.md"


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # mkdocs.yml's !ENV
NAV = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)["nav"]
LESSONS = [Path(s.path).stem for s in wayfinding.lesson_order(NAV) if s.path != PRIMER]
ELIDED = re.compile(r"^\.\.\. .* \.\.\.$")
# What a quote must not show: a raw pid, an IPv4 address, a machine's path.
MACHINE = re.compile(r"pid=\d|\b\d{1,3}(?:\.\d{1,3}){3}\b|/work/|/tmp/|/home/|site-packages/")


@cache
def _numbers(lesson: str) -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers" / f"{lesson}.py"), run_name="__numbers__")["numbers"]()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _said(tree: object) -> list[str]:
    """Every `_said` text in a recorded observation tree."""
    if isinstance(tree, dict):
        out = []
        for key, value in tree.items():
            if key.startswith("_said") and isinstance(value, str):
                out.append(value)
            else:
                out += _said(value)
        return out
    return []


RECORDED_WORDS = _flat(" ".join(text for obs in load_recorded().values() for text in _said(obs)))


def _fenced_placeholders(markdown: str) -> set[str]:
    """Placeholders that sit inside a fenced block of the page."""
    found, fenced = set(), False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            found.update(re.findall(r"\{\{ num \w+\.(\w+) \}\}", line))
    return found


def test_every_lesson_in_the_nav_is_checked():
    assert len(LESSONS) >= 12 and LESSONS[0] == "01_mini_runtime", LESSONS


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_page_quotes_ray_and_miniray_in_fenced_blocks(lesson: str):
    page = (REPO / "docs/lessons" / f"{lesson}.md").read_text(encoding="utf-8")
    fenced = _fenced_placeholders(page)
    assert {"ray_says", "miniray_says"} <= fenced, f"{lesson}: no fenced ray_says and miniray_says quote"
    numbers = _numbers(lesson)
    assert numbers["ray_says"].strip() and numbers["miniray_says"].strip()


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_line_quoted_as_ray_s_is_in_the_recording(lesson: str):
    numbers = _numbers(lesson)
    quoted = [
        key for key in numbers if key.startswith("ray_says") or key in ("ray_metrics", "ray_tasks_type")
    ]
    assert quoted
    for key in quoted:
        for line in numbers[key].splitlines():
            if not line.strip() or ELIDED.match(line.strip()):
                continue
            assert _flat(line) in RECORDED_WORDS, f"{lesson}.{key}: {line!r} is not in Ray's recorded output"


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_quote_names_no_machine(lesson: str):
    numbers = _numbers(lesson)
    for key in [k for k in numbers if k.startswith(("ray_says", "miniray_says"))]:
        found = MACHINE.findall(numbers[key])
        assert not found, (
            f"{lesson}.{key} shows {found}: normalise it in tests/conformance/scenarios/_said.py"
        )


def test_ray_and_miniray_differ_somewhere():
    """The pairs are two backends' words, not one text twice: at least half the lessons differ."""
    differing = [
        lesson for lesson in LESSONS if _numbers(lesson)["ray_says"] != _numbers(lesson)["miniray_says"]
    ]
    assert len(differing) * 2 >= len(LESSONS), differing
