"""Issue 24, layout, in real Chromium at 1280 and 390 px, light and dark: the Exercises index is a
styled table whose statuses are badges on one line, stacked into one block per exercise on a
phone; the home page's syllabus fits a phone's width; and the site ships no source maps."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from site_browser import screen, without_warm_up

pytestmark = pytest.mark.browser

COMBOS = [(1280, "light"), (390, "dark"), (1280, "dark"), (390, "light")]
REPO = Path(__file__).resolve().parents[2]


def _version(exercise: str) -> int:
    return tomllib.loads((REPO / f"exercises/{exercise}/exercise.toml").read_text())["version"]


# fault00 passed and fault01 tried on their current versions; fault02 passed on a version before its first.
PUT_PROGRESS_JS = f"""() => localStorage.setItem('fault-lines.progress.v1', JSON.stringify({{ exercises: {{
  fault00: {{ status: 'passed', version: {_version("fault00")}, code: 'a', at: '2026-12-01T10:00:00.000Z' }},
  fault01: {{ status: 'tried', version: {_version("fault01")}, code: 'b', at: '2026-12-01T10:00:00.000Z' }},
  fault02: {{ status: 'passed', version: 0, code: 'c', at: '2026-12-01T10:00:00.000Z' }} }} }}))"""

# Per badge: its text, how many lines it takes, and whether it is inside the viewport.
BADGES_JS = """() => [...document.querySelectorAll('table.fl-exercises .fl-badge')].map((b) => {
  const r = b.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(b).lineHeight);
  return { text: b.textContent, kind: b.className, lines: Math.round(r.height / line),
           inside: r.left >= 0 && r.right <= window.innerWidth + 0.5 };
})"""


def _context(new_context, width: int, scheme: str):
    context, traffic = new_context(**screen(width, scheme))
    without_warm_up(context)
    return context, traffic


@pytest.mark.parametrize(("width", "scheme"), COMBOS)
def test_the_exercises_index_is_a_styled_table_with_badges_readable_on_a_phone(
    new_context, base_url, width, scheme
):
    context, traffic = _context(new_context, width, scheme)
    page = context.new_page()
    page.goto(base_url + "exercises/")
    page.evaluate(PUT_PROGRESS_JS)
    page.reload()

    badges = page.evaluate(BADGES_JS)
    assert len(badges) >= 14
    kinds = {b["text"]: b["kind"].split("--")[-1] for b in badges}
    assert kinds["passed ✔"] == "passed" and kinds["tried, not passed yet"] == "tried"
    assert (
        kinds["not tried yet"] == "untried"
        and kinds["passed on an older version (v0): check again"] == "stale"
    )
    short = [b for b in badges if b["kind"] != "fl-badge fl-badge--stale"]
    assert all(b["lines"] == 1 for b in short), [b for b in short if b["lines"] != 1]
    assert all(b["inside"] for b in badges), [b for b in badges if not b["inside"]]

    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Styled (Material leaves a table with a class to its own devices): on a desktop, padded and
    # ruled cells under a header with its own background; on a phone, one padded, ruled block per
    # exercise, its id and status on a line, its title and summary under them.
    phone = width < 600
    cell = "table.fl-exercises tbody tr" if phone else "table.fl-exercises td"
    padding, rule, display = page.evaluate(
        f"() => {{ const el = document.querySelector('{cell}'); const s = getComputedStyle(el);"
        " return [parseFloat(s.paddingTop), s.borderBottomStyle,"
        " getComputedStyle(document.querySelector('table.fl-exercises tbody tr')).display]; }"
    )
    assert padding > 0 and rule == "solid"
    if phone:
        assert display == "grid"
        first = page.locator('tr[data-exercise="fault01"]')
        ident, badge, title = (
            first.locator(s).bounding_box() for s in (".fl-ex-id", ".fl-badge", ".fl-ex-title")
        )
        assert abs(ident["y"] - badge["y"]) < 12 and title["y"] > ident["y"] + ident["height"] - 1
    else:
        assert display == "table-row"
        head = page.evaluate(
            "getComputedStyle(document.querySelector('table.fl-exercises thead th')).backgroundColor"
        )
        assert head not in ("transparent", "rgba(0, 0, 0, 0)")
    traffic.assert_clean()


@pytest.mark.parametrize(("width", "scheme"), COMBOS)
def test_the_home_syllabus_fits_the_screen(new_context, base_url, width, scheme):
    context, traffic = _context(new_context, width, scheme)
    page = context.new_page()
    page.goto(base_url)
    table = page.locator("article table").first
    assert "Lesson" in table.inner_text() and "12" in table.inner_text()
    right = table.evaluate("(t) => t.getBoundingClientRect().right")
    overflow = table.evaluate(
        "(t) => { const w = t.closest('.md-typeset__scrollwrap') || t; return w.scrollWidth - w.clientWidth; }"
    )
    assert overflow <= 1, f"the syllabus scrolls sideways by {overflow} px at {width} px"
    assert right <= width, right
    # The lesson numbers stay whole: a column squeezed too far would break "10" into two lines.
    lines = table.evaluate(
        "(t) => [...t.querySelectorAll('tbody tr')].map((r) => { const range = document.createRange();"
        " range.selectNodeContents(r.cells[0]); return range.getClientRects().length; })"
    )
    assert len(lines) >= 12 and set(lines) == {1}, lines  # a row per lesson the nav lists
    traffic.assert_clean()


def test_the_site_ships_no_source_maps(site_dir):
    maps = sorted(str(p.relative_to(site_dir)) for p in site_dir.rglob("*.map"))
    assert maps == []
    naming = []
    for path in site_dir.rglob("*"):
        if path.suffix in (".js", ".mjs", ".css") and path.is_file():
            tail = path.read_bytes()[-400:]
            if re.search(rb"sourceMappingURL=(?!data:)\S+\.map", tail):
                naming.append(str(path.relative_to(site_dir)))
    assert naming == []
