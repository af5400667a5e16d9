"""How each of the learner's cell runs ended, so that check() grades only code still on screen.

check() grades the functions the notebook's namespace holds. A cell that defined one and then
failed when run again (a SyntaxError, an exception) leaves the earlier definition in place, and
grading that would pass or fail code the learner no longer sees, right under a red traceback.
So the kernel notes every run's outcome (IPython's post_run_cell: error_before_exec for code that
never ran, error_in_exec for code that raised) and check() refuses, in one line naming the cell,
when the last run of a cell that defined an entry function failed.

Which runs are runs of that cell: the one whose execution count IPython's compiler gives the
function's code, and every later run with the same cell id (a local Jupyter sends one) or, where
the kernel has no cell ids (the site's Pyodide kernel), whose source defines a function or class
of that name. A failed run before the definition does not count: the definition replaced it; the
defining run itself counts (an exception after the `def`).

What the kernel cannot see is an edit that was not run: the site's lab flags it on the report
(playground/lab_page.js); elsewhere the report says that it cannot tell (faultlines/notebook.py).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Any

KEPT = 500  # runs remembered: a learner's session, with room to spare


@dataclass(frozen=True)
class CellRun:
    count: int  # IPython's execution count, the [N] beside the cell
    cell_id: str | None
    source: str
    error: str | None  # why it failed, in one line; None when it ran to its end


_runs: list[CellRun] = []


def _why(result: Any) -> str | None:
    error = result.error_before_exec or result.error_in_exec
    if error is None:
        return None
    if isinstance(error, SyntaxError):
        where = f" on line {error.lineno}" if error.lineno else ""
        return f"{type(error).__name__}{where}: {error.msg}"
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _note(result: Any) -> None:
    if result.execution_count is None:  # a silent run (no history): no cell of the learner's
        return
    info = getattr(result, "info", None)
    _runs.append(
        CellRun(
            result.execution_count,
            getattr(info, "cell_id", None),
            getattr(info, "raw_cell", "") or "",
            _why(result),
        )
    )
    del _runs[:-KEPT]


def watch(shell: Any) -> None:
    """Note every cell run from now on (once per shell)."""
    events = getattr(shell, "events", None)
    if events is not None and _note not in events.callbacks.get("post_run_cell", []):
        events.register("post_run_cell", _note)


def _count_of(shell: Any, function: Any) -> int | None:
    """The execution count of the cell that defined `function`, if a cell did."""
    try:
        function = inspect.unwrap(function)  # a remote function, functools.wraps
    except ValueError:  # a cycle of __wrapped__
        return None
    code = getattr(function, "__code__", None)
    named = getattr(getattr(shell, "compile", None), "format_code_name", None)
    if code is None or named is None:
        return None
    found = named(code.co_filename)  # ("Cell", "In[5]") for a cell's code, else None
    digits = re.search(r"\d+", found[1]) if found else None
    return int(digits.group()) if digits else None


def _defines(source: str, name: str) -> bool:
    return (
        re.search(rf"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+{re.escape(name)}\b", source, re.M) is not None
    )


def refusal(shell: Any, function: Any, name: str) -> str | None:
    """Why `function` (the namespace's `name`, None if it has none) is not what its cell now
    holds: its cell failed when it last ran. None when it ran to its end, or when no cell run is
    known to be its."""
    defined = _count_of(shell, function) if function is not None else 0  # undefined: every run counts
    if defined is None:
        return None
    cell_id = next((r.cell_id for r in _runs if r.count == defined), None)
    own = [
        r
        for r in _runs
        if r.count >= defined and ((cell_id is not None and r.cell_id == cell_id) or _defines(r.source, name))
    ]
    last = own[-1] if own else None
    if last is None or last.error is None:
        return None
    if function is None:
        held = f"{name} is not defined"
    elif last.count > defined:
        held = f"the {name} this kernel holds is an older one"
    else:
        held = "it did not run to its end"
    return (
        f"your cell [{last.count}], which defines {name}, failed when it last ran ({last.error}), so {held}. "
        "Fix that cell and run it, then check again."
    )
