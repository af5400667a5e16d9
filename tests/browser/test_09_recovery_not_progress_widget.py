"""Lesson 9's lab in real Chromium: run it, switch the queue-policy widget from Ray 2.60's policy
to backoff, and see PG_C's attempt counter go from 0 to 1 (seed 000, Ray #65147)."""

from __future__ import annotations

import pytest
from site_browser import REPO, run_all_cells, start_lab, wait_for_output

pytestmark = pytest.mark.browser


def test_switching_queue_policy_changes_pg_c_counter(new_context, base_url):
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "lessons/09_recovery_not_progress/")
    frame_locator, frame = start_lab(page)
    run_all_cells(frame)

    # The widget starts on Ray 2.60's policy: PG_C is never tried.
    wait_for_output(frame_locator, "PG_C: 0 scheduling attempts, PENDING")
    from playwright.sync_api import expect  # playwright may be missing: conftest then skips

    cells = frame_locator.locator('tr[data-pg="PG_C"]').last.locator("td")
    expect(cells).to_have_text(["PG_C", "0", "PENDING"])  # retried: the widget redraws

    # Switch to backoff with the keyboard, as a learner without a mouse would.
    backoff = frame_locator.get_by_role("button", name="backoff", exact=True).last
    backoff.focus()
    backoff.press("Enter")
    wait_for_output(frame_locator, "PG_C: 1 scheduling attempt, CREATED")
    expect(cells).to_have_text(["PG_C", "1", "CREATED"])

    # And back: the counter returns to 0, so the change came from the policy.
    frame_locator.get_by_role("button", name="ray-2.60", exact=True).last.click()
    expect(cells).to_have_text(["PG_C", "0", "PENDING"])
    out = REPO / "build/screenshots"
    out.mkdir(parents=True, exist_ok=True)
    frame_locator.locator(".widget-vbox", has=frame_locator.locator('tr[data-pg="PG_C"]')).last.screenshot(
        path=str(out / "lesson09-queue-policy-widget.png")
    )
    traffic.assert_clean()
