"""A shared failing run, in real Chromium: the "Share this failing run" link in a failing check()
report, clicked in the exercise's lab, opens the replay page in a new tab, whose lab replays the
schedule on the shared code by itself (no cell run by the test) and shows the failure and its
timeline, in a notebook that says what it is; at a phone's width the replay token is not cut
off and the replay starts hidden until "Show the replay"; a link made for another version of the
exercise says so instead of replaying; and the bare page (no run in the link) offers nothing."""

from __future__ import annotations

import pytest
from site_browser import BOOT_TIMEOUT_MS, REPO, run_all_cells, start_lab, wait_for_lab
from test_site_a11y import AXE, BLOCKING, RUN_AXE_JS, WCAG_TAGS

from faultlines.grader import share

pytestmark = pytest.mark.browser


def _failing_report(page, base_url):
    """The exercise page's lab, the starter checked: the failing report, in the lab's frame."""
    page.goto(base_url + "exercises/fault05/")
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)
    report = frame_locator.locator(".fl-report.fl-failed").first
    report.wait_for(timeout=BOOT_TIMEOUT_MS)
    return report


def _open_shared(context, report, base_url):
    """Click the report's own link, as a learner does; return the page it opens."""
    link = report.locator("a.fl-share")
    href = link.get_attribute("href") or ""
    assert href.startswith(base_url + "exercises/replay/#s="), href  # absolute: it opens anywhere
    with context.expect_page() as opened:
        link.click()
    shared = opened.value
    shared.wait_for_load_state()
    assert shared.url == href
    shared.locator(".fl-replay__what").filter(has_text="A failing run of fault05").wait_for(timeout=10_000)
    return shared, href


def _screenshots():
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _assert_axe_finds_nothing_serious(page):
    """The replay page with its run shown (the scan of every page sees only the bare one)."""
    if not AXE.is_file():
        return  # test_site_a11y.py says so: it skips
    page.add_script_tag(path=str(AXE))
    assert [v for v in page.evaluate(RUN_AXE_JS, WCAG_TAGS) if v["impact"] in BLOCKING] == []


def _assert_replays_by_itself(shared):
    """The replay page's lab shows the replayed run with no cell run by the test: its notebook
    runs as it opens, says it replays a shared run and asks for no answer."""
    frame_locator, _ = wait_for_lab(shared)
    replayed = frame_locator.locator(".fl-replay-run.fl-failed").first
    replayed.wait_for(timeout=BOOT_TIMEOUT_MS)
    text = replayed.text_content() or ""
    assert "broken invariant: charged-at-most-once" in text
    assert "task.start attempt=process_order#1/2" in text  # the timeline of the replayed run
    notebook = frame_locator.locator(".jp-Notebook").text_content() or ""
    assert "A shared failing run: the next cell is the code it was found on" in notebook
    assert "Write your answer" not in notebook
    playground = shared.get_by_role("link", name="Edit it in the playground")
    assert "lite/lab/index.html?path=replay-fault05-" in (playground.get_attribute("href") or "")


def test_the_reports_share_link_opens_the_replay_in_a_new_tab(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    failed_at = []  # where each console error came from
    context.on("console", lambda msg: msg.type == "error" and failed_at.append(msg.location.get("url", "")))
    report = _failing_report(page, base_url)
    shared, href = _open_shared(context, report, base_url)
    assert share.decode(href).exercise == "fault05"
    _assert_axe_finds_nothing_serious(shared)

    _assert_replays_by_itself(shared)
    assert traffic.off_site() == []
    assert failed_at == [] and traffic.errors == [], traffic.errors


# Whether an element's box lies inside the notebook output that holds it (nothing cut off at the
# right), and whether anything between them scrolls on its own.
FITS_JS = """(el) => {
  const output = el.closest('.jp-OutputArea-output');
  const box = el.getBoundingClientRect(), room = output.getBoundingClientRect();
  let scrolls = false;
  for (let e = el; e && e !== output; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight) scrolls = true;
  }
  return { fits: box.right <= room.right + 1 && box.left >= room.left - 1, scrolls };
}"""


def test_on_a_phone_the_report_fits_and_its_link_opens(new_context, base_url):
    context, traffic = new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    page = context.new_page()
    report = _failing_report(page, base_url)
    token = report.locator(".fl-replay-call code")
    assert token.evaluate(FITS_JS) == {"fits": True, "scrolls": False}  # the token wraps, not cut
    timeline = report.locator(".fl-timeline")
    assert timeline.evaluate(FITS_JS)["scrolls"] is False  # no box scrolling inside the output
    # Lines wrap at spaces: no identifier of the timeline is split over two lines.
    assert timeline.evaluate("(el) => getComputedStyle(el).wordBreak") == "normal"
    shared, _ = _open_shared(context, report, base_url)
    # On a phone the replay starts hidden under the page that says what it is, until asked for.
    show = shared.get_by_role("button", name="Show the replay")
    show.wait_for()
    assert shared.locator(".fl-replay__bare").is_hidden()
    _assert_axe_finds_nothing_serious(shared)
    shared.screenshot(path=str(_screenshots() / "replay-page-390px-dark.png"))
    show.click()
    _assert_replays_by_itself(shared)
    shared.screenshot(path=str(_screenshots() / "replay-lab-390px-dark.png"))
    assert shared.evaluate("document.documentElement.scrollWidth") <= 390
    assert traffic.off_site() == []


def test_a_link_for_another_version_says_so(new_context, base_url):
    context, _ = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    token = "FL1.fault05.v0.8a8941413e.two-orders.WyJjcmFzaCBwcm9jZXNzX29yZGVyIzEvMSBzdGVwPTEiXQ"
    stale = share.SharedRun("fault05", token, "def process_order(api, order_id, amount):\n    pass\n")
    page.goto(stale.link(base_url))
    what = page.locator(".fl-replay__what")
    what.filter(has_text="version 0 of fault05, which is now version 1").wait_for(timeout=10_000)
    assert page.locator(".fl-replay__run").is_hidden() and page.locator(".fl-replay__bare").is_hidden()
    assert page.locator(".fl-replay").get_by_role("button").filter(visible=True).count() == 0


def test_the_bare_page_offers_nothing_it_cannot_do(new_context, base_url):
    """No run in the link (the nav's entry, a link cut short): the page says where links come
    from, and shows no button and no lab."""
    context, _ = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base_url + "exercises/replay/")
    page.locator(".fl-replay__bare").filter(has_text="This address has no run in it").wait_for()
    assert page.locator(".fl-replay__what").inner_text() == "No shared run in this link."
    assert page.locator(".fl-replay__run").is_hidden()
    assert page.locator(".fl-replay").get_by_role("button").filter(visible=True).count() == 0
    assert page.locator("iframe.fl-lab__iframe").count() == 0
