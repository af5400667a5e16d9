"""The class map's report (faultlines/classmap/page.py) and its replay pages, opened from disk in
real Chromium with the network off: no console error, no request, no serious or critical axe-core
finding, nothing wider than the screen at 390 px; in the light and the dark scheme.

The report is of a small made-up class (variants.py) with every kind of entry the page has: named
groups, one the catalogue cannot tell apart, an unexplained one with its stub, a submission with
no verdict, a progress file's unverified claim, and the per-student table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_site_a11y import AXE, BLOCKING, RUN_AXE_JS, WCAG_TAGS

from faultlines.classmap import catalogue, groups, page, replays, variants
from faultlines.classmap.handin import NOT_GRADED, UNVERIFIED, Handin, student_of
from faultlines.classmap.signature import Signature
from faultlines.grader import exercise, grade, submission

pytestmark = pytest.mark.browser

SKIPS_AN_ORDER = (
    "def process_order(api, order_id, amount):\n"
    "    if order_id == 18:\n"
    "        return\n"
    '    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=f"order-{order_id}"))\n'
)


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("classmap")
    made = variants.make_class(root / "class", ["fault00", "fault05"], 8)
    (root / "class/fault05/zed.py").write_text(SKIPS_AN_ORDER)
    keys = [(m.key, m.exercise) for m in made] + [("fault05/zed.py", "fault05")]
    handins = []
    for key, ex_id in keys:
        ex, path = exercise.load(ex_id), root / "class" / key
        report = grade.grade(ex, submission.from_file(path, ex.entry, ex.line_budget))
        handins.append(Handin(key, student_of(key.split("/", 1)[1]), ex_id, report, path=path))
    handins.append(
        Handin("fault00/s009.py", "s009", "fault00", status=NOT_GRADED, message="syntax error on line 3")
    )
    claim = Signature("fault05", 1, "charged-at-most-once", ("crash process_order#1/1 step=1",), "", False)
    handins.append(Handin("fault05/s009.json", "s009", "fault05", status=UNVERIFIED, claimed=claim))
    cmap = groups.build(handins, catalogue.by_signature)
    assert any(not g.named for g in cmap.groups) and any(g.indistinct for g in cmap.groups)
    replays.write(cmap, root / "map", jobs=2)
    target = root / "map/report.html"
    target.write_text(page.render(cmap), encoding="utf-8")
    return target


# The map's words, without the blocks shown as written (a stub's TOML).
WORDS_JS = """() => { const main = document.querySelector('main').cloneNode(true);
  main.querySelectorAll('pre').forEach((pre) => pre.remove()); return main.textContent; }"""


def _open(browser, target: Path, width: int, scheme: str):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, offline=True)
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    context.on("console", lambda m: m.type == "error" and errors.append(m.text))
    context.on("weberror", lambda e: errors.append(str(e.error)))
    page_ = context.new_page()
    page_.goto(target.as_uri())
    return context, page_, requests, errors


def _axe(page_) -> list[dict]:
    page_.add_script_tag(path=str(AXE))
    return [v for v in page_.evaluate(RUN_AXE_JS, WCAG_TAGS) if v["impact"] in BLOCKING]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_report_opens_offline_clean_and_readable(browser, report, width, scheme):
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: run `make node-deps`")
    context, page_, requests, errors = _open(browser, report, width, scheme)
    try:
        assert page_.get_by_role("heading", name="Class map").is_visible()
        assert page_.locator("article.group").count() >= 3
        assert [u for u in requests if not u.startswith("file:")] == []
        assert errors == []
        assert page_.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe(page_) == []
        # A group's replay link opens its page in a new tab (the map stays where it was), and
        # that page is just as clean. No literal backticks: the grader's code spans are code.
        assert "`" not in page_.evaluate(WORDS_JS)
        with context.expect_page() as opened:
            page_.locator('a[href="replays/1.html"]').first.click()
        replay = opened.value
        replay.wait_for_load_state()
        assert replay.url.endswith("/replays/1.html") and page_.url == report.as_uri()
        if replays.has_debugger():  # the debugger's own page, made by `replay --html`
            assert replay.locator(".fl-debugger").count() == 1
        assert replay.evaluate("document.documentElement.scrollWidth") <= width
        assert errors == [] and [u for u in requests if not u.startswith("file:")] == []
        assert _axe(replay) == []
    finally:
        context.close()


def test_a_students_row_links_to_their_group(browser, report):
    context, page_, _, _ = _open(browser, report, 390, "light")
    try:
        table = page_.get_by_role("table", name="Each student's result per exercise")
        link = table.get_by_role("link").first
        target = link.get_attribute("href")
        assert target is not None and target.startswith("#group-")
        link.click()
        assert page_.evaluate("location.hash") == target
        assert page_.locator(f"{target} h4").is_visible()
    finally:
        context.close()
