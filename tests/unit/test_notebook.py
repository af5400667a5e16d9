"""check() and replay() as a notebook (or a plain script) calls them: the learner's functions
come from the caller's namespace; the report shows as HTML in a notebook, text elsewhere."""

from __future__ import annotations

import json
import re

from grader_support import REPO

from faultlines import notebook
from faultlines.grader.budgets import HOOKS, instrument


def _run_cells(source: str, capsys) -> tuple[dict, str]:
    namespace: dict = {"__name__": "__main__", **HOOKS}
    exec(instrument(source, "<cell>"), namespace)
    return namespace, capsys.readouterr().out


def test_check_grades_the_callers_functions_and_prints_text(capsys):
    starter = (REPO / "exercises/fault05/starter.py").read_text()
    _, out = _run_cells(
        'from faultlines import notebook as fl\nfl.start("fault05")\n' + starter + "fl.check()\n", capsys
    )
    assert "fault05 v1" in out and "NOT YET" in out
    assert "broken invariant: charged-at-most-once" in out
    token = re.search(r'fl\.replay\("([^"]+)"\)', out).group(1)
    reference = (REPO / "exercises/fault05/reference.py").read_text()
    _, out = _run_cells(
        reference + "fl_check = __import__('faultlines.notebook').notebook.check('fault05')\n", capsys
    )
    assert "PASSED, 10/10 points" in out
    # the failing schedule, replayed on the fixed code: every invariant holds
    namespace, _ = _run_cells(reference, capsys)
    outcome = eval("__import__('faultlines.notebook').notebook.replay(t)", {**namespace, "t": token})
    assert not outcome.violations


def test_a_shared_runs_notebook_says_what_it_is_not_to_write_an_answer(capsys):
    """The replay page's notebook starts with start(..., shared=True): its first output says the
    notebook replays a shared run, where an exercise's asks for an answer."""
    _, shared = _run_cells(
        'from faultlines import notebook as fl\nfl.start("fault05", shared=True)\n', capsys
    )
    _, answer = _run_cells('from faultlines import notebook as fl\nfl.start("fault05")\n', capsys)
    assert shared.startswith("fault05 v1: ") and "A shared failing run" in shared
    assert "check()" not in shared and "Write your answer below, then run check()." in answer


def test_the_html_report_carries_what_the_site_records_as_progress():
    from grader_support import grade_file

    report = grade_file("fault05", REPO / "exercises/fault05/reference.py")
    html = notebook.CheckResult(report)._repr_html_()
    assert 'class="fl-report fl-ex-fault05 fl-v1 fl-passed fl-code-' in html
    assert 'data-passed="true"' in html


def _data_attributes(html: str) -> dict[str, str]:
    """The report's outer element's data-* attributes, unescaped as a browser reads them."""
    from html import unescape

    head = html[: html.index(">")]
    return {name: unescape(value) for name, value in re.findall(r' data-([a-z]+)="([^"]*)"', head)}


def test_a_failing_report_carries_its_failure_signature_and_the_source_for_the_progress_file():
    """What docs/design/progress-file.md's last_failure is made of reaches the page on the
    report: the invariant, the shrunk schedule's tokens, the hint id, the replay token and the
    submission's source, for the instructor's class map to group learners stuck alike."""
    from grader_support import grade_file

    wrong = REPO / "exercises/fault05/wrong/no_key.py"
    report = grade_file("fault05", wrong)
    failure = report.first_failure
    assert failure is not None and failure.hint is not None
    source = wrong.read_text()
    data = _data_attributes(notebook.CheckResult(report, source)._repr_html_())
    assert data["exercise"] == "fault05" and data["version"] == "1" and data["passed"] == "false"
    assert data["invariant"] == failure.invariant == "charged-at-most-once"
    assert json.loads(data["schedule"]) == failure.schedule and failure.schedule
    assert data["hint"] == failure.hint.id and data["token"] == failure.token
    assert data["source"] == source  # quotes, <, & and newlines come back as written


def test_a_passing_report_has_no_failure_signature_but_keeps_the_source():
    from grader_support import grade_file

    reference = REPO / "exercises/fault05/reference.py"
    data = _data_attributes(
        notebook.CheckResult(grade_file("fault05", reference), "def f(): pass")._repr_html_()
    )
    assert data["passed"] == "true" and data["source"] == "def f(): pass"
    assert not {"invariant", "schedule", "hint", "token"} & set(data)


def test_a_missing_function_is_one_line_in_the_report(capsys):
    _, out = _run_cells('from faultlines import notebook as fl\nfl.check("fault05")\n', capsys)
    assert "cannot grade: your notebook: no function named 'process_order'" in out
