"""check() grades the code on screen, in IPython's own shell (CPython), as a notebook runs cells: a
cell that defines the entry function and failed when it last ran (a SyntaxError, an exception
after or before its `def`) is refused in one line naming the cell, not graded as the definition
from before it; fixed and run again, it is graded. With cell ids (a local Jupyter sends them) and
without (the site's Pyodide kernel sends none: the cell's source says which function it defines).
A local Jupyter's report says that it cannot see an edit not run (the site's lab flags one:
tests/browser/test_site_exercises.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultlines.notebook import UNSEEN_EDITS

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
REFERENCE = (REPO / "exercises/fault05/reference.py").read_text()
SETUP = 'from faultlines import notebook as fl\nfl.start("fault05")'
CHECK = "result = fl.check()"
BROKEN = REFERENCE.replace(
    "def process_order(api, order_id, amount):", "def process_order(api, order_id, amount:"
)


def _run(cells: list[tuple[str | None, str]]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, str(HERE / "ipython_cells.py")],
        input=json.dumps(cells),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("CELLS ")]
    assert lines, proc.stderr[-3000:]
    return json.loads(lines[-1][len("CELLS ") :])


def _refused(answer: dict) -> str:
    text = answer["text"]
    assert text.startswith("fault05: cannot grade: ") and "\n" not in text, text
    assert "Cannot grade:" in answer["html"]
    return text


@pytest.mark.parametrize("ids", [True, False], ids=["cell ids", "no cell ids"])
def test_a_failed_run_of_the_answer_cell_is_refused_naming_it_and_a_fixed_one_is_graded(ids):
    def cell(name: str, source: str) -> tuple[str | None, str]:
        return (name if ids else None, source)

    answers = _run(
        [
            cell("setup", SETUP),
            cell("answer", REFERENCE),
            cell("check", CHECK),
            cell("answer", BROKEN),  # [4]: SyntaxError; the namespace keeps [2]'s process_order
            cell("check", CHECK),
            cell("answer", REFERENCE + "\nraise RuntimeError('a slip after the def')\n"),  # [6]
            cell("check", CHECK),
            cell("answer", "1 / 0\n" + REFERENCE),  # [8]: raises before its def
            cell("check", CHECK),
            cell("other", "1 / 0"),  # a failed run of another cell changes nothing
            cell("answer", REFERENCE),
            cell("check", CHECK),
        ]
    )
    errors = [a["error"] for a in answers]
    assert errors[3] == "SyntaxError" and errors[5] == "RuntimeError" and errors[7] == "ZeroDivisionError"
    assert answers[2]["passed"] is True and "PASSED" in answers[2]["text"]
    assert UNSEEN_EDITS in answers[2]["html"], "a local Jupyter says it cannot see an edit not run"

    syntax = _refused(answers[4])
    assert (
        "your cell [4], which defines process_order, failed when it last ran (SyntaxError on line 1" in syntax
    )
    assert "the process_order this kernel holds is an older one" in syntax
    after = _refused(answers[6])
    assert "your cell [6]" in after and "(RuntimeError: a slip after the def)" in after
    assert "it did not run to its end" in after
    before = _refused(answers[8])
    assert "your cell [8]" in before and "ZeroDivisionError: division by zero" in before
    assert "an older one" in before
    assert answers[11]["passed"] is True and "cannot grade" not in answers[11]["text"]


def test_an_answer_cell_that_never_ran_to_its_end_says_so_instead_of_no_function():
    answers = _run([(None, SETUP), (None, BROKEN), (None, CHECK)])
    text = _refused(answers[2])
    assert "your cell [2], which defines process_order, failed when it last ran (SyntaxError" in text
    assert "so process_order is not defined" in text


def test_with_cell_ids_a_failed_run_of_the_cell_counts_whatever_its_source_now_defines():
    answers = _run(
        [("setup", SETUP), ("answer", REFERENCE), ("answer", "process_order = (\n"), ("check", CHECK)]
    )
    assert "your cell [3], which defines process_order, failed" in _refused(answers[3])


def test_a_check_in_the_cell_that_defines_the_function_grades_it():
    # An earlier failed run of the same cell came before this definition: it does not count.
    answers = _run([("setup", SETUP), ("answer", BROKEN), ("answer", REFERENCE + "\n" + CHECK)])
    assert answers[2]["passed"] is True
