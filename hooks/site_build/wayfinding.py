"""Where to go next: "Previous: …" and "Next: …" links on every lesson and exercise page.

The order is the `Lessons` section of mkdocs.yml's nav (the primer first, then lessons 1 to 12),
so reordering the nav reorders the links. A lesson page links the lesson before and after it;
the last one's "Next" is the exercise list. An exercise page names its lesson (exercise.toml's
`lesson`) as "Previous" and the lesson after it as "Next": the step after a pass.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

NAV_KEY = "Lessons"
AFTER_THE_LAST = ("All exercises", "exercises/index.md")


@dataclass(frozen=True)
class Stop:
    title: str  # as the nav shows it, e.g. "3. Lineage and its cliffs"
    path: str  # docs-relative, e.g. "lessons/03_lineage.md"


def lesson_order(nav: list[Any] | None) -> list[Stop]:
    """The nav's Lessons section, in order."""
    for item in nav or []:
        if isinstance(item, dict) and NAV_KEY in item:
            return [
                Stop(title, path)
                for entry in item[NAV_KEY]
                if isinstance(entry, dict)
                for title, path in entry.items()
            ]
    return []


def _relative(path: str, from_page: str) -> str:
    """A docs-relative path as a link from the page at from_page."""
    return posixpath.relpath(path, posixpath.dirname(from_page) or ".")


def _links(previous: Stop | None, after: Stop | None, src_path: str) -> str:
    parts = []
    if previous is not None:
        parts.append(f"[Previous: {previous.title}]({_relative(previous.path, src_path)}){{ .md-button }}")
    if after is not None:
        parts.append(
            f"[Next: {after.title}]({_relative(after.path, src_path)}){{ .md-button .md-button--primary }}"
        )
    return "\n\n" + " ".join(parts) + "\n{: .fl-wayfinding }\n" if parts else ""


def for_lesson(order: list[Stop], src_path: str) -> str:
    """The links a lesson page ends with ("" for a page not in the order)."""
    paths = [stop.path for stop in order]
    if src_path not in paths:
        return ""
    at = paths.index(src_path)
    previous = order[at - 1] if at > 0 else None
    after = order[at + 1] if at + 1 < len(order) else Stop(*AFTER_THE_LAST)
    return _links(previous, after, src_path)


def lesson_of(order: list[Stop], lesson_key: str) -> Stop | None:
    """The lesson whose page is lessons/<lesson_key>.md."""
    return next((stop for stop in order if stop.path == f"lessons/{lesson_key}.md"), None)


def for_exercise(order: list[Stop], lesson_key: str, src_path: str) -> str:
    """An exercise page's links: back to its lesson, on to the lesson after it."""
    lesson = lesson_of(order, lesson_key)
    if lesson is None:
        return ""
    at = order.index(lesson)
    after = order[at + 1] if at + 1 < len(order) else Stop(*AFTER_THE_LAST)
    return _links(lesson, after, src_path)
