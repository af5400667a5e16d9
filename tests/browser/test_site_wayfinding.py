"""Wayfinding, as a learner uses it: "Start here" on the home page without scrolling, and the
"Next: …" and "Previous: …" links walked from lesson 1 to lesson 12 and back, on a phone."""

from __future__ import annotations

import re

import pytest
from site_browser import REPO

pytestmark = pytest.mark.browser

LESSONS = sorted(p.stem for p in (REPO / "lessons").glob("[01][0-9]_*.py"))  # 01_mini_runtime ... 12_capstone


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_start_here_is_visible_without_scrolling(new_context, base_url, viewport):
    context, traffic = new_context(viewport=viewport)
    page = context.new_page()
    page.goto(base_url)
    start_here = page.locator("article a.fl-start-here")
    for index, (name, href) in enumerate(
        (("Ray in one page", "lessons/00_ray_in_one_page/"), ("Lesson 1", "lessons/01_mini_runtime/"))
    ):
        link = start_here.nth(index)
        assert link.inner_text().startswith(name)
        box = link.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], (name, box)
        assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], (name, box)
        assert link.get_attribute("href").endswith(href)
    start_here.first.click()
    page.wait_for_url("**/lessons/00_ray_in_one_page/")
    assert page.locator("#figure-00_system_model img").count() == 2  # drawn for both schemes
    traffic.assert_clean()


def _wayfinding(page, direction: str):
    return page.locator(".fl-wayfinding").get_by_role("link", name=re.compile(f"^{direction}: "))


def test_next_walks_lesson_1_to_12_and_previous_walks_back(new_context, base_url):
    context, traffic = new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url + f"lessons/{LESSONS[0]}/")
    visited = [LESSONS[0]]
    for expected in LESSONS[1:]:
        _wayfinding(page, "Next").click()
        page.wait_for_url(f"**/lessons/{expected}/")
        visited.append(page.url.rstrip("/").rsplit("/", 1)[1])
    assert visited == LESSONS
    assert _wayfinding(page, "Next").inner_text() == "Next: All exercises"
    for expected in reversed(LESSONS[:-1]):
        _wayfinding(page, "Previous").click()
        page.wait_for_url(f"**/lessons/{expected}/")
    assert _wayfinding(page, "Previous").inner_text() == "Previous: Ray in one page"
    traffic.assert_clean()


def test_an_exercise_page_names_its_lesson_and_the_next_step(new_context, base_url):
    context, _ = new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url + "exercises/fault06/")
    lesson = page.get_by_role("link", name="7. Crashed or just slow").first
    assert lesson.get_attribute("href").endswith("lessons/07_liveness/")
    assert _wayfinding(page, "Previous").inner_text() == "Previous: 7. Crashed or just slow"
    assert _wayfinding(page, "Next").inner_text() == "Next: 8. Placement and retry policy"
