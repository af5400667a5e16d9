"""`python -m faultlines replay TOKEN --html FILE`: the debugger as one offline page a TA can attach
to feedback (opened in Chromium by tests/browser/test_site_debugger.py)."""

from __future__ import annotations

import re

from test_cli import EX05, REPO, cli


def _starter_token(exercise_id: str) -> str:
    from faultlines.grader import exercise, grade, submission

    ex = exercise.load(exercise_id)
    sub = submission.from_file(REPO / f"exercises/{exercise_id}/starter.py", ex.entry, ex.line_budget)
    return grade.grade(ex, sub).first_failure.token


def test_replay_html_writes_one_self_contained_page(tmp_path):
    token = _starter_token("fault05")
    target = tmp_path / "feedback.html"
    result = cli("replay", token, str(EX05 / "starter.py"), "--html", str(target))
    assert result.returncode == 1  # the replayed run still fails, as without --html
    assert f"wrote {target}" in result.stdout
    html = target.read_text()
    assert html.startswith("<!doctype html>") and "charged-at-most-once" in html
    assert 'aria-label="Virtual time"' in html
    assert "Remove fault crash process_order#1/1 step=1" in html
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_replay_html_to_a_folder_that_does_not_exist_is_one_line(tmp_path):
    token = _starter_token("fault05")
    result = cli("replay", token, str(EX05 / "starter.py"), "--html", str(tmp_path / "no/such/dir.html"))
    assert result.returncode == 2
    assert "cannot write the page" in result.stderr and result.stderr.count("\n") == 1
