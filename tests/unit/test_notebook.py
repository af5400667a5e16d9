"""check() and replay() as a notebook (or a plain script) calls them: the learner's functions
come from the caller's namespace; the report shows as HTML in a notebook, text elsewhere."""

from __future__ import annotations

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


def test_the_html_report_carries_what_the_site_records_as_progress():
    from grader_support import grade_file

    report = grade_file("fault05", REPO / "exercises/fault05/reference.py")
    html = notebook.CheckResult(report)._repr_html_()
    assert 'class="fl-report fl-ex-fault05 fl-v1 fl-passed fl-code-' in html
    assert 'data-passed="true"' in html


def test_a_missing_function_is_one_line_in_the_report(capsys):
    _, out = _run_cells('from faultlines import notebook as fl\nfl.check("fault05")\n', capsys)
    assert "cannot grade: your notebook: no function named 'process_order'" in out
