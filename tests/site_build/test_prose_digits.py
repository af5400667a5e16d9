"""The digit check (hooks/site_build/prose_digits.py): a lesson's prose states no number by hand.

Every lesson page passes it (the site build runs it too, and stops on the first page that fails);
the rules are pinned by small pages that must pass and must fail; and the one literal version the
rules allow, "Ray 2.60", is the version the conformance recording was made with.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.observations import recorded_file
from hooks.site_build import prose_digits

REPO = Path(__file__).resolve().parents[2]
LESSON_PAGES = sorted((REPO / "docs/lessons").glob("*.md"))


@pytest.mark.parametrize("page", LESSON_PAGES, ids=lambda p: p.stem)
def test_every_lesson_page_states_no_number_by_hand(page: Path):
    prose_digits.check(page.read_text(encoding="utf-8"), f"lessons/{page.name}")


@pytest.mark.parametrize(
    "line",
    [
        "1. **No retries.** Run it again.",  # a list marker
        "As lesson 5 showed, and lessons 3 and 4 before it.",
        "Run **Step 3** of the lab, then section 2.",
        "N1 and `node:1` and fault05 and p99 and PG_C are names.",
        "It took {{ num 01_mini_runtime.clean_s }} s.",
        "Ray stores {{ const 100 KiB source=ray:max_direct_call_object_size }} inline.",
        "Real Ray 2.60 does the same.",
        "Code `max_retries=3` and [a link](../lessons/05_idempotency.md) hide their digits.",
        "```\n42 in a fence\n```",
        "| table | 42 |",
    ],
)
def test_names_placeholders_code_and_tables_pass(line: str):
    assert prose_digits.offenders(line) == []


@pytest.mark.parametrize(
    "line",
    [
        "The job finished at t = 3.5 s.",
        "It made 55 calls.",
        "Young's approximation (1974).",
        '??? question "Does a 3-CPU task start?"',
        "## 50 calls in five lives",
        "Ray 2.59 did something else.",
    ],
)
def test_a_typed_number_fails_with_its_line(line: str):
    page = f"# Title\n\nSome prose.\n{line}\n"
    with pytest.raises(prose_digits.DigitError) as caught:
        prose_digits.check(page, "lessons/x.md")
    assert "lessons/x.md:4:" in str(caught.value)


def test_a_constant_must_name_its_source():
    with pytest.raises(prose_digits.DigitError, match="no known kind of source"):
        prose_digits.check("It waits {{ const 3 s source=folklore }}.", "lessons/x.md")
    assert prose_digits.fill_constants("a {{ const 3 s source=ray:x }} wait") == "a 3 s wait"


def test_the_allowed_ray_release_is_the_recorded_one():
    assert recorded_file()["ray"].rsplit(".", 1)[0] == prose_digits.RAY_RELEASE


def test_a_number_that_would_start_a_list_item_stops_the_build():
    page = "Some prose that ends the line with\n{{ num 09_recovery_not_progress.story_pg_c }}. More.\n"
    with pytest.raises(prose_digits.DigitError, match="lessons/x.md:2: a placeholder starts the line"):
        prose_digits.check(page, "lessons/x.md")
