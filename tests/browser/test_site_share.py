"""A shared failing run, in real Chromium: the replay page refuses a link made for another version
of the exercise, and opens a current one as a playground notebook that replays the schedule on
the shared code and shows the failure and its timeline."""

from __future__ import annotations

import pytest
from site_browser import BOOT_TIMEOUT_MS, REPO

from faultlines.grader import exercise, grade, share, submission
from hooks.site_build.browser import SESSION_READY_JS

pytestmark = pytest.mark.browser


def _starter_run() -> share.SharedRun:
    ex = exercise.load("fault05")
    code = (REPO / "exercises/fault05/starter.py").read_text()
    failure = grade.grade(
        ex, submission.from_source(code, "starter.py", ex.entry, ex.line_budget)
    ).first_failure
    assert failure is not None
    return share.SharedRun(ex.id, failure.token, code)


def test_a_share_link_opens_the_replayed_failure_and_a_stale_one_says_so(new_context, base_url):
    run = _starter_run()
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    failed_at = []  # where each console error came from
    context.on("console", lambda msg: msg.type == "error" and failed_at.append(msg.location.get("url", "")))

    stale = share.SharedRun(run.exercise, run.token.replace(".v1.", ".v0."), run.code)
    page.goto(base_url + "exercises/replay/" + stale.link(page=""))
    what = page.locator(".fl-replay__what")
    what.filter(has_text="version 0 of fault05, which is now version 1").wait_for(timeout=10_000)
    assert page.locator(".fl-replay__open").is_disabled()

    page.goto("about:blank")  # a new document: only the fragment differs
    page.goto(base_url + "exercises/replay/" + run.link(page=""))
    what.filter(has_text="A failing run of fault05").wait_for(timeout=10_000)
    page.get_by_role("button", name="Open it in the playground").click()
    page.wait_for_url("**/lite/lab/index.html?path=replay-fault05-*", timeout=30_000)
    page.wait_for_function("() => window.jupyterapp", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function(SESSION_READY_JS, timeout=BOOT_TIMEOUT_MS)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    replayed = page.locator(".fl-replay-run.fl-failed").first
    replayed.wait_for(timeout=BOOT_TIMEOUT_MS)
    text = replayed.text_content() or ""
    assert "broken invariant: charged-at-most-once" in text
    assert "task.start task=process_order" in text  # the timeline of the replayed run
    assert traffic.off_site() == []
    # The lab opens as a top-level page, which names no icon, so Chromium asks for /favicon.ico
    # (as the playground's full-screen lab does): the only error allowed.
    assert len(failed_at) == len(traffic.errors)
    assert {url.rsplit("/", 1)[-1] for url in failed_at} <= {"favicon.ico"}, traffic.errors
