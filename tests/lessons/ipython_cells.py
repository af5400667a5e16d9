"""Run cells in IPython's own shell as a notebook does, and say what each check() answered.

Run as a script (a fresh interpreter per notebook: IPython's shell is one per process): cells as
JSON on stdin, `[[cell_id or null, source], ...]`, each run with store_history as a notebook's
are; a JSON list on stdout, one entry per cell: the error it raised (its type), and for a cell
whose last line is `result = fl.check()` what that check answered (its text and HTML).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys


def main() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    answers = []
    for cell_id, source in json.loads(sys.stdin.read()):
        shell.user_ns.pop("result", None)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            ran = shell.run_cell(source, store_history=True, cell_id=cell_id)
        error = ran.error_before_exec or ran.error_in_exec
        answer: dict = {"count": ran.execution_count, "error": type(error).__name__ if error else None}
        result = shell.user_ns.get("result")
        if result is not None:
            answer.update(text=repr(result), html=result._repr_html_(), passed=result.report.passed)
        answers.append(answer)
    print("CELLS " + json.dumps(answers))


if __name__ == "__main__":
    main()
