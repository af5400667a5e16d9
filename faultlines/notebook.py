"""The grader in a notebook: `start(...)` once, then `check()` after each try.

    from faultlines import notebook as fl
    fl.start("fault05")      # budget ticks on the cells that follow (IPython's AST transformers)
    ...                      # the learner's cell: def process_order(api, order_id, amount): ...
    fl.check()               # the public tiers; an HTML report in a notebook, text in a terminal
    fl.replay("FL1...")      # one failing run again, with its timeline (miniray.timeline() after)

The same notebook runs in the site's lab (Pyodide) and in a local Jupyter with faultlines
installed. The report's HTML carries the exercise, its version, the code's hash and the verdict
as classes and data attributes, which is how the site records progress in the browser.
"""

from __future__ import annotations

import base64
import json
import sys
from typing import Any

from .grader import exercise, grade, render_html, render_text, submission, tokens
from .grader.budgets import HOOKS, instrument_tree
from .grader.report import Report
from .grader.runner import Outcome

_state: dict[str, Any] = {"exercise": None}


def _shell() -> Any:
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


class _BudgetTicks:
    """An IPython AST transformer: every cell run after start() counts against the step budget."""

    def visit(self, tree: Any) -> Any:
        return instrument_tree(tree)


def start(exercise_id: str) -> None:
    ex = exercise.load(exercise_id)
    _state["exercise"] = ex.id
    shell = _shell()
    if shell is not None:
        shell.user_ns.update(HOOKS)
        if not any(isinstance(t, _BudgetTicks) for t in shell.ast_transformers):
            shell.ast_transformers.append(_BudgetTicks())
    print(f"{ex.id} v{ex.version}: {ex.title}. Write your answer below, then run check().")


def _namespace() -> dict[str, Any]:
    shell = _shell()
    if shell is not None:
        return shell.user_ns
    return sys._getframe(2).f_globals  # a plain script: the caller's module


# From a notebook in the site's lab (lite/notebooks/ or lite/lab/) to the site's replay page.
SHARE_PAGE = "../../exercises/replay/"


def share_link(exercise_id: str, token: str, code: str) -> str:
    """A link that opens the playground with a notebook replaying `token` on `code`."""
    payload = json.dumps({"exercise": exercise_id, "token": token, "code": code}, separators=(",", ":"))
    return SHARE_PAGE + "#s=" + base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


class CheckResult:
    """Shows as the HTML report in a notebook and as text anywhere else."""

    def __init__(self, report: Report, source: str = ""):
        self.report = report
        self.source = source

    def _repr_html_(self) -> str:
        failure = self.report.first_failure
        share = None
        if failure is not None and sys.platform == "emscripten":  # only the site's lab has the page
            share = share_link(self.report.exercise, failure.token, self.source)
        return render_html.render(self.report, share_url=share)

    def __repr__(self) -> str:
        return render_text.render(self.report)


def _exercise_id(exercise_id: str | None) -> str:
    chosen = exercise_id or _state["exercise"]
    if chosen is None:
        raise ValueError('which exercise? Run start("fault05") first, or call check("fault05").')
    return chosen


def check(exercise_id: str | None = None) -> CheckResult | None:
    ex = exercise.load(_exercise_id(exercise_id))
    try:
        sub = submission.from_namespace(_namespace(), ex.entry)
    except submission.BadSubmission as e:
        report = Report(ex.id, ex.title, ex.version, "", error=str(e))
        source = ""
    else:
        report = grade.grade(ex, sub)
        source = sub.source
    result = CheckResult(report, source)
    if _shell() is None:
        print(repr(result))
        return None
    return result


def replay(token: str) -> Outcome:
    """Run one failing schedule again on the code defined now, and print its timeline."""
    decoded = tokens.decode(token)
    ex = exercise.load(decoded.exercise)
    tokens.check_version(decoded, ex.version)
    sub = submission.from_namespace(_namespace(), ex.entry)
    outcome = grade.replay(ex, sub, decoded)
    print(
        f"{ex.id} v{ex.version}, scenario {decoded.scenario}, schedule: {'; '.join(decoded.schedule) or '(none)'}"
    )
    if sub.code_hash != decoded.code_hash:
        print("(the token was found on different code; this replays it on yours)")
    print("\n".join(outcome.log))
    for name, detail in outcome.violations:
        print(f"broken invariant: {name}: {detail}")
    if not outcome.violations:
        print("every invariant holds on this run")
    print("miniray.timeline() now exports this run as a Chrome trace.")
    return outcome
